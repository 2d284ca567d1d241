import { type FallbackDestinationView, type FallbackError } from '@vigil/control-plane';

/** The fallback form as typed: a provider id (empty for none) and recipients as entered. */
export interface FallbackFormValues {
  readonly providerId: string;
  readonly recipients: string;
}

/** A refused field's message, by field. */
export interface FallbackFormErrors {
  readonly providerId?: string;
  readonly recipients?: string;
}

/** The fields in the order of the form: the error summary lists and links them so. */
export const FALLBACK_FIELDS = ['providerId', 'recipients'] as const;

export function fallbackFormValuesOf(view: FallbackDestinationView | null): FallbackFormValues {
  return { providerId: view?.providerId ?? '', recipients: view?.recipients.join('\n') ?? '' };
}

export function readFallbackForm(body: Record<string, unknown>): FallbackFormValues {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { providerId: text(body.providerId).trim(), recipients: text(body.recipients) };
}

/** The refusal on its field; a field the form does not have is put on the recipients. */
export function fallbackErrorsOf(error: FallbackError): FallbackFormErrors {
  const field = error.field === 'providerId' ? 'providerId' : 'recipients';
  return { [field]: error.message };
}

/** A fallback destination in a few words, to go inside a sentence: where it goes. */
export function describeFallback(view: FallbackDestinationView): string {
  const parts = [
    ...(view.providerId === null ? [] : [`provider ${view.providerName ?? '(deleted)'}`]),
    ...(view.recipients.length === 0 ? [] : [`email to ${view.recipients.join(', ')}`]),
  ];
  return parts.join(' and ');
}

/** The same as a sentence of its own. */
export function fallbackSentence(view: FallbackDestinationView): string {
  const text = describeFallback(view);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}
