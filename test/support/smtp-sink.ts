import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  envelopeTo: string[];
  from: string | undefined;
  subject: string | undefined;
  text: string | undefined;
  html: string | undefined;
  messageId: string | undefined;
}

/** A real SMTP server on 127.0.0.1 (plain, no auth) that parses every message it accepts. */
export class SmtpSink {
  readonly received: ReceivedEmail[] = [];
  port = 0;
  private readonly server: SMTPServer;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks))
            .then((email) => {
              this.received.push({
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                from: email.from?.address,
                subject: email.subject,
                text: email.text,
                html: email.html,
                messageId: email.messageId,
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
  }

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.port = (sink.server.server.address() as AddressInfo).port;
    return sink;
  }

  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.envelopeTo.includes(address));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
