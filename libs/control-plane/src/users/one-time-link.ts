import { createHash, randomBytes } from 'node:crypto';

/** What a one-time link lets its holder do: choose a first password, or a new one. */
export type OneTimeLinkPurpose = 'invitation' | 'password_reset';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const PASSWORD_RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** 32 random bytes in base64url. */
const LINK_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** A link issued to a user: shown once (or emailed); only the SHA-256 of `token` is stored. */
export interface OneTimeLink {
  readonly purpose: OneTimeLinkPurpose;
  readonly token: string;
  readonly expiresAt: Date;
  readonly userId: string;
  readonly email: string;
}

export function newLinkToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: linkTokenHash(token) };
}

export function linkTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function isLinkTokenFormat(token: unknown): token is string {
  return typeof token === 'string' && LINK_TOKEN_FORMAT.test(token);
}

/** The page of the web application a link opens: `{app_url}/reset-password/<token>` or `/invitation/<token>`. */
export function oneTimeLinkUrl(
  appUrl: string,
  link: Pick<OneTimeLink, 'purpose' | 'token'>,
): string {
  const path = link.purpose === 'invitation' ? 'invitation' : 'reset-password';
  return `${appUrl.replace(/\/+$/, '')}/${path}/${link.token}`;
}

export function describePurpose(purpose: OneTimeLinkPurpose): string {
  return purpose === 'invitation' ? 'invitation link' : 'password reset link';
}
