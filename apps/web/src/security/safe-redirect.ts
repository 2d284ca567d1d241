/** Where to go after sign-in: a path of this application only, never another site. */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/';
  // "//host" and "/\host" are protocol-relative to browsers; only plain local paths pass.
  return /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/';
}
