/** A problem with one field of a destination form, worded to be shown next to that field. */
export interface DestinationFieldError {
  /** Path of the field, e.g. `url`, `routingKey` or `severityMapping.bands[1].from`. */
  field: string;
  message: string;
}

export type DestinationValidation<T> =
  { ok: true; value: T } | { ok: false; errors: DestinationFieldError[] };

export function valid<T>(value: T): DestinationValidation<T> {
  return { ok: true, value };
}

export function invalid<T>(field: string, message: string): DestinationValidation<T> {
  return { ok: false, errors: [{ field, message }] };
}

/** Longest URL a destination may have (the same bound as webhook providers). */
export const DESTINATION_URL_MAX_LENGTH = 2048;

/**
 * The URL in `input` when it is one (trimmed), or the error to show. `URL` is the WHATWG parser
 * every JavaScript runtime provides.
 */
export function parseUrlField(
  input: unknown,
  field: string,
  missing: string,
): DestinationValidation<URL> {
  if (typeof input !== 'string' || input.trim() === '') return invalid(field, missing);
  const text = input.trim();
  if (text.length > DESTINATION_URL_MAX_LENGTH) {
    return invalid(field, `is longer than ${DESTINATION_URL_MAX_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid(field, 'is not a URL');
  }
  return valid(url);
}

/** A URL fit to carry a secret: https on the default port, no user or password in it. */
export function httpsProblem(url: URL): string | null {
  if (url.protocol !== 'https:') return 'must start with https://';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.port !== '') return 'must not name a port';
  return null;
}
