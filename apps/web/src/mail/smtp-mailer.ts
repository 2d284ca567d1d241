import nodemailer, { type Transporter } from 'nodemailer';
import { type Mailer, type OutgoingEmail } from '@vigil/workspace';

export interface SmtpMailerOptions {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly user?: string;
  readonly password?: string;
  readonly from: string;
}

/**
 * Sends account emails (invitations, password resets) over the SMTP server the notifier uses,
 * at once and without retries: the admin is waiting, and a failure shows them the link instead.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.password ?? '' } : undefined,
      // Bounded, so a silent server cannot hold the admin's request for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(email: OutgoingEmail): Promise<void> {
    await this.transport.sendMail({ from: this.options.from, ...email });
  }

  close(): void {
    this.transport.close();
  }
}
