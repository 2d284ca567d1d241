import { oneTimeLinkUrl, type OneTimeLink } from '@vigil/control-plane';
import { type Mailer } from '../ports/mailer';
import { accountLinkEmail } from './account-link-email';

/**
 * How a one-time link reached its user: emailed, or to be shown to the admin this once (no SMTP
 * server configured, or the email failed, with the reason).
 */
export type HandedOverLink =
  | { readonly via: 'email'; readonly email: string; readonly expiresAt: Date }
  | {
      readonly via: 'shown';
      readonly email: string;
      readonly url: string;
      readonly expiresAt: Date;
      readonly emailFailure?: string;
    };

export interface AccountLinksOptions {
  /** APP_URL: the links open its `/invitation/<token>` and `/reset-password/<token>` pages. */
  readonly appUrl: string;
  /** Present when an SMTP server is configured for the web application. */
  readonly mailer?: Mailer;
}

/** Hands a one-time link over: by email when there is a mailer, else to the admin's screen. */
export class AccountLinks {
  constructor(private readonly options: AccountLinksOptions) {}

  async handOver(link: OneTimeLink, name: string): Promise<HandedOverLink> {
    const url = oneTimeLinkUrl(this.options.appUrl, link);
    const shown = { via: 'shown' as const, email: link.email, url, expiresAt: link.expiresAt };
    const { mailer } = this.options;
    if (mailer === undefined) return shown;
    try {
      await mailer.send(accountLinkEmail(link, url, name));
      return { via: 'email', email: link.email, expiresAt: link.expiresAt };
    } catch (error) {
      // The link is valid either way: give it to the admin rather than lose it.
      const reason = error instanceof Error ? error.message : String(error);
      return { ...shown, emailFailure: reason.slice(0, 300) };
    }
  }
}
