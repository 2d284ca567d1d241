import nodemailer, { type Transporter } from 'nodemailer';
import type { ClaimedDelivery } from '@vigil/control-plane';
import type { ReadinessCheck } from '@vigil/ops';
import type { EmailPayload } from './plan-deliveries';
import type { SendOutcome } from './send-outcome';

export interface EmailSenderOptions {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

/**
 * Sends stored emails over SMTP through a pool of connections. The Message-ID is derived from
 * the delivery id, so a mail sent twice (a lease lost mid-send) is recognisably the same.
 * A permanent SMTP rejection (5xx) is not retried.
 */
export class EmailSender {
  private readonly transport: Transporter;

  constructor(private readonly options: EmailSenderOptions) {
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.password ?? '' } : undefined,
      pool: true,
      maxConnections: 5,
    });
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const email = JSON.parse(delivery.payload) as EmailPayload;
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: `<${delivery.id}@vigil>`,
        headers: { 'X-Vigil-Notification-Id': delivery.notificationId },
      });
      return { ok: true, statusCode: null, error: null };
    } catch (error) {
      const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
      const answered = typeof responseCode === 'number';
      return {
        ok: false,
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
        permanent: answered && responseCode >= 500,
        failure: answered ? 'http_error' : code === 'ETIMEDOUT' ? 'timeout' : 'network_error',
      };
    }
  }

  /**
   * /readyz's check of the SMTP server: a connection that greets and accepts EHLO (and the
   * login, when there is one). Its answer is kept a while: each check opens a connection.
   */
  readiness(): ReadinessCheck {
    return {
      dependency: 'smtp',
      cacheMs: 15_000,
      check: async () => {
        await this.transport.verify();
      },
    };
  }

  close(): void {
    this.transport.close();
  }
}
