import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** What the signature check concluded for one received webhook. */
export type SignatureCheck = 'valid' | 'invalid' | 'unchecked';

export interface ReceivedWebhook {
  readonly seq: number;
  readonly receivedAt: Date;
  /** The receiving path's last segment, e.g. `demo` for /webhooks/demo. */
  readonly channel: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signature: SignatureCheck;
  /** Why the signature was refused, when it was. */
  readonly signatureError?: string;
}

const CHANNEL = /^[A-Za-z0-9._-]{1,64}$/;

export function isChannelName(value: string): boolean {
  return CHANNEL.test(value);
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Webhooks received by the local receiver, newest first, at most `capacity` of them. A
 * channel's signing secret, once known, is used to verify the Standard Webhooks signature of
 * every later delivery on it.
 */
export class WebhookInbox {
  private readonly items: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly capacity: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  setSecret(channel: string, secret: string): void {
    this.secrets.set(channel, secret);
  }

  record(channel: string, headers: IncomingHttpHeaders, body: string): ReceivedWebhook {
    const flat = flatHeaders(headers);
    const secret = this.secrets.get(channel);
    let signature: SignatureCheck = 'unchecked';
    let signatureError: string | undefined;
    if (secret !== undefined) {
      try {
        new Webhook(secret).verify(body, flat);
        signature = 'valid';
      } catch (error) {
        signature = 'invalid';
        signatureError = error instanceof Error ? error.message : String(error);
      }
    }
    const item: ReceivedWebhook = {
      seq: ++this.seq,
      receivedAt: this.now(),
      channel,
      headers: flat,
      body,
      signature,
      ...(signatureError === undefined ? {} : { signatureError }),
    };
    this.items.unshift(item);
    if (this.items.length > this.capacity) this.items.length = this.capacity;
    return item;
  }

  /** Newest first. */
  list(): readonly ReceivedWebhook[] {
    return this.items;
  }
}
