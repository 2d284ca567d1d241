import {
  WEBHOOK_PROVIDER_KINDS,
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type EnrollWebhookProviderCommand,
  type WebhookProviderError,
  type WebhookProviderKind,
} from '@vigil/control-plane';

export const KIND_CHOICES: readonly {
  key: WebhookProviderKind;
  label: string;
  description: string;
}[] = [
  {
    key: 'automation',
    label: 'Automation platform',
    description: 'A workflow tool’s incoming webhook (for example a SOAR or no-code platform).',
  },
  {
    key: 'custom',
    label: 'Custom webhook',
    description: 'Any HTTPS endpoint you run that accepts a JSON POST.',
  },
];

export function kindLabel(kind: WebhookProviderKind): string {
  return KIND_CHOICES.find((k) => k.key === kind)!.label;
}

/** The enrollment form as typed: re-rendered unchanged when refused. */
export interface ProviderFormValues {
  readonly name: string;
  readonly kind: string;
  readonly url: string;
}

export interface ProviderFormErrors {
  name?: string;
  kind?: string;
  url?: string;
}

export const EMPTY_PROVIDER_FORM: ProviderFormValues = { name: '', kind: 'custom', url: '' };

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function readProviderForm(body: Record<string, unknown>): ProviderFormValues {
  return { name: text(body.name), kind: text(body.kind), url: text(body.url) };
}

function isKind(value: string): value is WebhookProviderKind {
  return (WEBHOOK_PROVIDER_KINDS as readonly string[]).includes(value);
}

/**
 * Checks every field that needs no network, so all such problems show at once; the URL's
 * target (DNS, private addresses) is judged by the WebhookProviderService when enrolling.
 */
export function checkProviderForm(
  values: ProviderFormValues,
): { ok: true; command: EnrollWebhookProviderCommand } | { ok: false; errors: ProviderFormErrors } {
  const errors: ProviderFormErrors = {};
  const name = values.name.trim();
  if (name.length === 0) errors.name = 'Enter a name.';
  else if (name.length > WEBHOOK_PROVIDER_NAME_MAX_LENGTH)
    errors.name = `The name must be at most ${WEBHOOK_PROVIDER_NAME_MAX_LENGTH} characters.`;
  if (!isKind(values.kind)) errors.kind = 'Choose Automation platform or Custom webhook.';
  const url = values.url.trim();
  if (url.length === 0) errors.url = 'Enter the URL Vigil should POST to.';
  else if (url.length > WEBHOOK_URL_MAX_LENGTH)
    errors.url = `The URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`;
  else if (!/^https?:\/\//i.test(url))
    errors.url = 'Enter a full URL starting with https:// (or http://).';
  if (Object.keys(errors).length > 0 || !isKind(values.kind)) return { ok: false, errors };
  return { ok: true, command: { name, kind: values.kind, url } };
}

/** A refusal of the provider rules, next to the field it concerns. */
export function providerErrorOf(error: WebhookProviderError): ProviderFormErrors {
  if (error.code === 'target_refused') {
    return {
      url: `Vigil will not send to this URL: ${error.message}.`,
    };
  }
  const message = error.message.endsWith('.') ? error.message : `${error.message}.`;
  if (error.field === 'name' || error.field === 'kind') return { [error.field]: message };
  return { url: message };
}
