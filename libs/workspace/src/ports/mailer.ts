/** An email as the workspace writes it: plain text and HTML, to one address. */
export interface OutgoingEmail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * Sends an email now, over the SMTP server the notifier uses (SmtpMailer in the web
 * application). Rejects when the server refuses or cannot be reached.
 */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}
