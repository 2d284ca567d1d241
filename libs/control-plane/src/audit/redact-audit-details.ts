const SECRET_FIELDS = new Set([
  'secret',
  'previoussecret',
  'password',
  'passwordhash',
  'token',
  'tokenvalue',
  'value',
  'clientsecret',
  'key',
]);
const SECRET_VALUE = /^(whsec_|vgk1-|v1:)/;
const MAX_DEPTH = 8;

/**
 * The details of an audit event with anything that looks like a secret replaced: fields named
 * as secrets (secret, password, token, value, clientSecret, key…) and values shaped like a
 * webhook secret, an API token or a sealed value. Details are written by use cases that should
 * never pass a secret; this is the net under them, since the audit log cannot be changed later.
 */
export function redactAuditDetails(details: unknown, depth = 0): unknown {
  if (typeof details === 'string') return SECRET_VALUE.test(details) ? '[redacted]' : details;
  if (details === null || typeof details !== 'object') return details;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(details)) return details.map((item) => redactAuditDetails(item, depth + 1));
  if (details instanceof Date) return details.toISOString();
  return Object.fromEntries(
    Object.entries(details).map(([field, value]) => [
      field,
      SECRET_FIELDS.has(field.toLowerCase().replace(/[_-]/g, ''))
        ? '[redacted]'
        : redactAuditDetails(value, depth + 1),
    ]),
  );
}
