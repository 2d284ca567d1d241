/**
 * A Slack or Teams URL as listed: scheme, host and first path segment, the rest (the part that
 * lets anybody post) left out. The whole URL is sealed with the provider's secrets.
 */
export function withoutCredential(url: string): string {
  const parsed = new URL(url);
  const first = parsed.pathname.split('/').filter(Boolean)[0];
  return `${parsed.origin}/${first ? `${first}/` : ''}…`;
}
