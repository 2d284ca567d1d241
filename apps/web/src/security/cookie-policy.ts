import type { CookieOptions } from 'express';

/**
 * Cookie names and flags. Behind HTTPS (SESSION_SECURE_COOKIES=true) cookies are Secure and use
 * the `__Host-` prefix, which the browser only accepts from a secure origin, for path /, with
 * no Domain: no subdomain or plain-HTTP page can plant or overwrite them.
 */
export class CookiePolicy {
  readonly sessionCookie: string;
  readonly preSessionCsrfCookie: string;
  /** The state of this browser's single sign-on under way, until the provider sends it back. */
  readonly singleSignOnCookie: string;

  constructor(readonly secure: boolean) {
    const prefix = secure ? '__Host-' : '';
    this.sessionCookie = `${prefix}vigil_session`;
    this.preSessionCsrfCookie = `${prefix}vigil_csrf`;
    this.singleSignOnCookie = `${prefix}vigil_sso`;
  }

  session(expiresAt: Date): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', expires: expiresAt };
  }

  /** The sign-in form's CSRF token lives in a browser-session cookie until there is a session. */
  preSession(): CookieOptions {
    return { httpOnly: true, sameSite: 'strict', secure: this.secure, path: '/' };
  }

  /**
   * Lax, not strict: the provider's redirect back is a cross-site navigation, on which a strict
   * cookie would not be sent.
   */
  singleSignOn(expiresAt: Date): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', expires: expiresAt };
  }

  cleared(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/' };
  }
}
