import {
  DEFAULT_SEVERITY_MAPPING,
  DESTINATION_KINDS,
  type DestinationKind,
  type SeverityBand,
} from '@vigil/destinations';
import {
  WEBHOOK_PROVIDER_KINDS,
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type EnrollWebhookProviderCommand,
  type WebhookProviderError,
  type WebhookProviderKind,
} from '@vigil/control-plane';
import {
  EMPTY_FILTER_FORM,
  filterErrorsOf,
  filterInputOf,
  readFilterForm,
  type FilterFormErrors,
  type FilterFormValues,
} from './provider-filter-form';

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

export const DESTINATION_CHOICES: readonly {
  key: DestinationKind;
  label: string;
  description: string;
}[] = [
  {
    key: 'webhook',
    label: 'Webhook',
    description:
      'Vigil’s JSON payload, signed (Standard Webhooks): for SOAR platforms and your own receivers.',
  },
  {
    key: 'slack',
    label: 'Slack',
    description: 'A message in a channel, through a Slack app’s incoming webhook.',
  },
  {
    key: 'teams',
    label: 'Microsoft Teams',
    description: 'An Adaptive Card in a channel, through a Teams workflow.',
  },
  {
    key: 'pagerduty',
    label: 'PagerDuty',
    description:
      'An incident on a PagerDuty service (Events API v2), one per detection or investigation.',
  },
];

export function destinationLabel(kind: DestinationKind): string {
  return DESTINATION_CHOICES.find((k) => k.key === kind)!.label;
}

export const REGION_CHOICES: readonly { key: string; label: string; description: string }[] = [
  { key: 'us', label: 'US', description: 'events.pagerduty.com' },
  { key: 'eu', label: 'EU', description: 'events.eu.pagerduty.com' },
];

/** A severity mapping as the form shows it: one band per line, `FROM-TO SEVERITY`. */
export function severityBandsText(bands: readonly SeverityBand[]): string {
  return bands.map((band) => `${band.from}-${band.to} ${band.severity}`).join('\n');
}

/** The enrollment form as typed: re-rendered unchanged when refused. */
export interface ProviderFormValues extends Partial<FilterFormValues> {
  readonly name: string;
  readonly kind: string;
  readonly url: string;
  /** What the provider receives; `webhook` when absent (a form from before kinds). */
  readonly destination?: string;
  readonly routingKey?: string;
  readonly region?: string;
  readonly source?: string;
  readonly severityBands?: string;
  readonly severityUnscored?: string;
}

export interface ProviderFormErrors extends FilterFormErrors {
  name?: string;
  kind?: string;
  url?: string;
  destination?: string;
  routingKey?: string;
  region?: string;
  source?: string;
  severityBands?: string;
  severityUnscored?: string;
}

export const EMPTY_PROVIDER_FORM: ProviderFormValues = {
  name: '',
  kind: 'custom',
  url: '',
  destination: 'webhook',
  routingKey: '',
  region: 'us',
  source: '',
  severityBands: severityBandsText(DEFAULT_SEVERITY_MAPPING.bands),
  severityUnscored: DEFAULT_SEVERITY_MAPPING.unscored,
  ...EMPTY_FILTER_FORM,
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function readProviderForm(body: Record<string, unknown>): ProviderFormValues {
  return {
    name: text(body.name),
    kind: text(body.kind),
    url: text(body.url),
    destination: text(body.destination) || 'webhook',
    routingKey: text(body.routingKey),
    region: text(body.region),
    source: text(body.source),
    severityBands: text(body.severityBands),
    severityUnscored: text(body.severityUnscored),
    ...readFilterForm(body),
  };
}

function isDestination(value: string): value is DestinationKind {
  return (DESTINATION_KINDS as readonly string[]).includes(value);
}

const BAND_LINE = /^(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)\s+([a-z]+)$/i;

/**
 * The bands typed one per line (`4-7 warning`); blank lines are skipped. Numbers and order are
 * the destination's check (gaps and overlaps are reported there, by line).
 */
export function parseSeverityBands(
  textValue: string,
):
  | { ok: true; bands: { from: number; to: number; severity: string }[] }
  | { ok: false; error: string } {
  const bands: { from: number; to: number; severity: string }[] = [];
  const lines = textValue.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const match = BAND_LINE.exec(line);
    if (!match) {
      return {
        ok: false,
        error: `Line ${i + 1}: write one band per line as FROM-TO SEVERITY, for example “4-7 warning”.`,
      };
    }
    bands.push({ from: Number(match[1]), to: Number(match[2]), severity: match[3].toLowerCase() });
  }
  if (bands.length === 0) {
    return { ok: false, error: 'Enter at least one band, for example “0-10 warning”.' };
  }
  return { ok: true, bands };
}

function isKind(value: string): value is WebhookProviderKind {
  return (WEBHOOK_PROVIDER_KINDS as readonly string[]).includes(value);
}

/**
 * Checks every field that needs no network, so all such problems show at once; the URL's
 * target (DNS, private addresses) and each destination's own rules (Slack's and Teams' URL
 * forms, the routing key, the severity bands) are judged by the WebhookProviderService.
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
  const destination = values.destination ?? 'webhook';
  if (!isDestination(destination)) {
    errors.destination = 'Choose Webhook, Slack, Microsoft Teams or PagerDuty.';
  }
  const url = values.url.trim();
  if (destination !== 'pagerduty') {
    if (url.length === 0) errors.url = 'Enter the URL Vigil should POST to.';
    else if (url.length > WEBHOOK_URL_MAX_LENGTH)
      errors.url = `The URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`;
    else if (!/^https?:\/\//i.test(url))
      errors.url = 'Enter a full URL starting with https:// (or http://).';
  }
  let details: Record<string, unknown> | undefined;
  if (destination === 'slack' || destination === 'teams') details = { kind: destination };
  if (destination === 'pagerduty') {
    const routingKey = (values.routingKey ?? '').trim();
    if (routingKey.length === 0) {
      errors.routingKey = 'Enter the integration key of the PagerDuty service (Events API v2).';
    }
    const bands = parseSeverityBands(values.severityBands ?? '');
    if (!bands.ok) errors.severityBands = bands.error;
    details = {
      kind: 'pagerduty',
      routingKey,
      region: values.region || 'us',
      source: (values.source ?? '').trim(),
      severityMapping: {
        bands: bands.ok ? bands.bands : [],
        unscored: values.severityUnscored || DEFAULT_SEVERITY_MAPPING.unscored,
      },
    };
  }
  if (Object.keys(errors).length > 0 || !isKind(values.kind)) return { ok: false, errors };
  return {
    ok: true,
    command: {
      name,
      kind: values.kind,
      url: destination === 'pagerduty' ? '' : url,
      ...(details && { destination: details }),
      filter: filterInputOf({ ...EMPTY_FILTER_FORM, ...values }),
    },
  };
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  url: 'The URL',
  routingKey: 'The integration key',
  region: 'The region',
  source: 'The source',
};

/** A validator's message as a sentence: a fragment ("must be …") gets the field's name. */
function sentence(label: string, message: string): string {
  const text = /^[a-z]/.test(message) ? `${label} ${message}` : message;
  return text.endsWith('.') ? text : `${text}.`;
}

/** Where a destination's refused field shows on the form, and what it says there. */
function destinationFieldError(field: string, message: string): [keyof ProviderFormErrors, string] {
  const band = /^severityMapping\.bands\[(\d+)\]\.(from|to|severity)$/.exec(field);
  if (band) {
    const what = band[2] === 'severity' ? 'the severity' : `the “${band[2]}” score`;
    return ['severityBands', sentence(`Line ${Number(band[1]) + 1}: ${what}`, message)];
  }
  if (field === 'severityMapping.unscored') {
    return ['severityUnscored', sentence('The severity of unscored notifications', message)];
  }
  if (field.startsWith('severityMapping')) return ['severityBands', sentence('The bands', message)];
  if (field === 'kind' || field === '')
    return ['destination', sentence('The destination', message)];
  const key = (field in FIELD_LABELS ? field : 'url') as keyof ProviderFormErrors;
  return [key, sentence(FIELD_LABELS[field] ?? 'This', message)];
}

/** A refusal of the provider rules, next to the field it concerns. */
export function providerErrorOf(error: WebhookProviderError): ProviderFormErrors {
  if (error.fieldErrors.length > 0) {
    const errors: ProviderFormErrors = filterErrorsOf(error);
    for (const { field, message } of error.fieldErrors) {
      if (field.startsWith('filter.')) continue;
      const [key, text] = destinationFieldError(field, message);
      // Several messages on one field (two band lines): shown together.
      errors[key] = errors[key] === undefined ? text : `${errors[key]} ${text}`;
    }
    return errors;
  }
  if (error.code === 'target_refused') {
    // A host name that cannot be resolved is said in sentences of its own ("The host name …
    // could not be found (DNS). Check the URL."); an address the policy refuses is explained.
    return {
      url: error.message.endsWith('.')
        ? error.message
        : `Vigil will not send to this URL: ${error.message}.`,
    };
  }
  const message = error.message.endsWith('.') ? error.message : `${error.message}.`;
  if (error.field === 'name' || error.field === 'kind') return { [error.field]: message };
  return { url: message };
}
