/**
 * A secrets key as written in VIGIL_SECRETS_KEY or a key file: 32 bytes in base64 (or
 * base64url), 44 characters, or in hex, 64 characters; surrounding white space ignored. Null
 * for anything else, so the caller can say which variable or file is wrong.
 */
export function decodeKeyText(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}
