import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface CaughtEmail {
  readonly id: number;
  readonly receivedAt: Date;
  readonly envelopeFrom: string | undefined;
  readonly envelopeTo: readonly string[];
  readonly from: string | undefined;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string | undefined;
  readonly html: string | undefined;
}

/** Messages larger than this are refused: the catcher keeps everything in memory. */
const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;

/**
 * A local SMTP server (plain, no authentication, 127.0.0.1) that keeps the last `capacity`
 * messages it accepts, parsed, newest first.
 */
export class MailCatcher {
  private readonly items: CaughtEmail[] = [];
  private readonly server: SMTPServer;
  private nextId = 1;

  constructor(private readonly capacity: number) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      size: MAX_MESSAGE_BYTES,
      logger: false,
      banner: 'Vigil local mail catcher',
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
            return;
          }
          PostalMime.parse(Buffer.concat(chunks))
            .then((email) => {
              const envelopeFrom = session.envelope.mailFrom;
              this.keep({
                id: this.nextId++,
                receivedAt: new Date(),
                envelopeFrom: envelopeFrom === false ? undefined : envelopeFrom.address,
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                from: email.from?.address,
                to: (email.to ?? []).map((a) => a.address ?? a.name),
                subject: email.subject ?? '(no subject)',
                text: email.text,
                html: email.html,
              });
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
  }

  /** Listens on 127.0.0.1; resolves with the port (0 asks the OS for one). */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve((this.server.server.address() as AddressInfo).port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Newest first. */
  list(): readonly CaughtEmail[] {
    return this.items;
  }

  get(id: number): CaughtEmail | undefined {
    return this.items.find((m) => m.id === id);
  }

  private keep(email: CaughtEmail): void {
    this.items.unshift(email);
    if (this.items.length > this.capacity) this.items.length = this.capacity;
  }
}
