import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import {
  WebhookTargetError,
  assertWebhookUrl,
  guardedLookup,
  type ClaimedDelivery,
  type WebhookProviderTarget,
  type WebhookTargetPolicy,
} from '@vigil/control-plane';
import { bodyToSend, destinationUrl, type DestinationConfig } from '@vigil/destinations';
import type { SendOutcome } from './send-outcome';

export const WEBHOOK_USER_AGENT = 'Vigil-Webhooks/1';
const MAX_RESPONSE_EXCERPT = 512;

export interface WebhookSenderOptions {
  policy: WebhookTargetPolicy;
  timeoutMs: number;
  /** The provider behind a delivery's target; undefined when unknown. */
  provider: (id: string) => Promise<WebhookProviderTarget | undefined>;
  /**
   * Where a destination's requests go: destinationUrl (the provider's own URL, Slack's or Teams'
   * webhook, PagerDuty's Events API of the region). Tests point the services at local receivers.
   */
  urlOf?: (destination: DestinationConfig) => string;
}

interface HttpResult {
  statusCode: number;
  location: string | undefined;
  excerpt: string;
}

/**
 * Delivers a webhook: the stored body, signed per Standard Webhooks (`webhook-id` = delivery id,
 * the same on every retry), POSTed with a timeout. Redirects are never followed (node:http does
 * not follow them; a 3xx is a failure). The connection's DNS lookup applies the SSRF policy to
 * the very address it connects to, so the check cannot be raced by a DNS change.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly lookup;
  /**
   * URLs that passed assertWebhookUrl under this sender's policy, by their text: the check
   * needs no DNS and its answer for a text never changes, while every delivery would redo it.
   */
  private readonly checkedUrls = new Map<string, URL>();

  constructor(private readonly options: WebhookSenderOptions) {
    this.lookup = guardedLookup(options.policy);
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const provider = await this.options.provider(delivery.target);
    if (!provider || provider.deleted) {
      return {
        ok: false,
        statusCode: null,
        error: 'The webhook provider was deleted',
        permanent: true,
        failure: 'refused',
      };
    }
    if (provider.disabled) {
      // Disabled after this delivery was queued: it stays recoverable as a dead delivery.
      return {
        ok: false,
        statusCode: null,
        error: 'The webhook provider is disabled',
        permanent: true,
        failure: 'refused',
      };
    }
    const { destination } = provider;
    let url: URL;
    try {
      url = this.checkedUrl((this.options.urlOf ?? destinationUrl)(destination));
    } catch (error) {
      return { ok: false, statusCode: null, error: messageOf(error), failure: 'refused' };
    }
    const body = Buffer.from(bodyToSend(delivery.payload, destination), 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': WEBHOOK_USER_AGENT,
    };
    if (destination.kind === 'webhook') {
      // Standard Webhooks: the receiver verifies the signature and de-duplicates on the id.
      // Slack, Teams and PagerDuty authenticate by the URL or routing key instead.
      const timestamp = new Date();
      headers['webhook-id'] = delivery.id;
      headers['webhook-timestamp'] = String(Math.floor(timestamp.getTime() / 1000));
      headers['webhook-signature'] = signatureHeader(
        provider,
        delivery.id,
        timestamp,
        delivery.payload,
      );
    }
    try {
      const result = await this.post(url, body, headers);
      if (result.statusCode >= 200 && result.statusCode < 300) {
        return { ok: true, statusCode: result.statusCode, error: null };
      }
      const error =
        result.statusCode >= 300 && result.statusCode < 400
          ? `Redirect to ${result.location ?? '(no location)'} not followed`
          : `HTTP ${result.statusCode}${result.excerpt ? `: ${result.excerpt}` : ''}`;
      return {
        ok: false,
        statusCode: result.statusCode,
        error,
        failure: 'http_error',
        ...(isFinalAnswer(destination, result.statusCode) ? { permanent: true } : {}),
      };
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        error: messageOf(error),
        failure: failureOf(error),
      };
    }
  }

  private checkedUrl(raw: string): URL {
    return rememberedIn(this.checkedUrls, raw, () => assertWebhookUrl(raw, this.options.policy));
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * POSTs within one timeout. A kept-alive connection the receiver closed just as it was reused
   * fails at once with ECONNRESET or EPIPE before any answer: that says nothing about the
   * receiver, so the request is sent again once on a new connection (the same webhook-id, which
   * receivers de-duplicate on) instead of costing the delivery an attempt.
   */
  private async post(url: URL, body: Buffer, headers: Record<string, string>): Promise<HttpResult> {
    const deadline = performance.now() + this.options.timeoutMs;
    try {
      return await this.postOnce(url, body, headers, deadline, true);
    } catch (error) {
      if (!(error instanceof StaleConnectionError)) throw error;
      return this.postOnce(url, body, headers, deadline, false);
    }
  }

  /**
   * One POST, destroyed at `deadline` wherever it is (connecting, sending, reading the answer).
   * A plain timer rather than `AbortSignal.timeout`: the signal, its listeners and its weakly
   * held timer cost more per request than the rest of the send (bench:notifier's floor: 0.49 of
   * raw POSTs without it, 0.37 with it).
   */
  private postOnce(
    url: URL,
    body: Buffer,
    headers: Record<string, string>,
    deadline: number,
    reuse: boolean,
  ): Promise<HttpResult> {
    const secure = url.protocol === 'https:';
    const request = secure ? https.request : http.request;
    const pooled = secure ? this.httpsAgent : this.httpAgent;
    return new Promise<HttpResult>((settle, fail) => {
      let answered = false;
      const timer = setTimeout(
        () => {
          const error = new WebhookTimeoutError(this.options.timeoutMs);
          reject(error);
          req.destroy(error);
        },
        Math.max(0, deadline - performance.now()),
      );
      const resolve = (result: HttpResult) => {
        clearTimeout(timer);
        settle(result);
      };
      const reject = (error: Error) => {
        clearTimeout(timer);
        fail(error);
      };
      const req = request(
        url,
        {
          method: 'POST',
          headers,
          // false: a connection of its own, closed after the answer.
          agent: reuse ? pooled : false,
          lookup: this.lookup,
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < MAX_RESPONSE_EXCERPT) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              statusCode: res.statusCode ?? 0,
              location: res.headers.location,
              excerpt: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_EXCERPT).trim(),
            }),
          );
        },
      );
      req.on('error', (error: Error) => {
        const code = (error as { code?: unknown }).code;
        if (reuse && req.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE')) {
          reject(new StaleConnectionError(error));
        } else {
          reject(error);
        }
      });
      req.end(body);
    });
  }
}

/**
 * The `webhook-signature` header: `v1,<signature>` with the provider's secret, followed, while a
 * rotated-out secret still signs, by a space and `v1,<signature>` with that one. The Standard
 * Webhooks scheme allows several space-separated signatures and its verifiers accept a header
 * when any one matches, so a receiver holding either secret keeps verifying during the overlap.
 */
export function signatureHeader(
  provider: Pick<WebhookProviderTarget, 'secret' | 'previousSecret'>,
  id: string,
  timestamp: Date,
  payload: string,
): string {
  const secrets = [provider.secret, ...(provider.previousSecret ? [provider.previousSecret] : [])];
  const seconds = Math.floor(timestamp.getTime() / 1000);
  return secrets.map((secret) => standardWebhookSignature(secret, id, seconds, payload)).join(' ');
}

const SECRET_PREFIX = 'whsec_';

/**
 * `v1,` and the base64 HMAC-SHA256 of `id.timestamp.payload` under the secret's base64 key, as
 * the Standard Webhooks library signs (its verifier is the spec's reference) but with node's
 * native HMAC: the library's JavaScript SHA-256 took a tenth of the notifier's time per delivery.
 */
function standardWebhookSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  payload: string,
): string {
  const mac = createHmac('sha256', signingKeyOf(secret))
    .update(`${id}.${timestampSeconds}.`)
    .update(payload);
  return `v1,${mac.digest('base64')}`;
}

/** Keys by secret: decoding the secret and preparing the key cost a third of each signature. */
const signingKeys = new Map<string, KeyObject>();

function signingKeyOf(secret: string): KeyObject {
  return rememberedIn(signingKeys, secret, () => {
    const bytes = Buffer.from(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
      'base64',
    );
    if (bytes.length === 0) throw new Error('a webhook secret cannot be empty');
    return createSecretKey(bytes);
  });
}

const MAX_REMEMBERED = 1_000;

/**
 * `cache`'s value for `key`, made by `make` the first time (a throw is not remembered). Bounded:
 * providers and secrets come and go, so a full cache starts again rather than growing.
 */
function rememberedIn<V>(cache: Map<string, V>, key: string, make: () => V): V {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const value = make();
  if (cache.size >= MAX_REMEMBERED) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * PagerDuty's Events API answers 400 to an event it will never accept (a malformed event, an
 * unknown routing key) and asks to retry only on 429 and 5xx: anything else is final. Other
 * destinations keep the retry schedule of SPEC webhooks for every failure.
 */
export function isFinalAnswer(destination: DestinationConfig, statusCode: number): boolean {
  if (destination.kind !== 'pagerduty') return false;
  return statusCode !== 429 && statusCode < 500;
}

/** No answer within the webhook timeout. */
class WebhookTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`No response within ${timeoutMs} ms`);
    this.name = 'WebhookTimeoutError';
  }
}

/**
 * Why a POST got no answer: too late, or no connection at all. The guarded lookup refusing the
 * address (a private target resolved at connect time) is Vigil refusing to send.
 */
function failureOf(error: unknown): 'timeout' | 'network_error' | 'refused' {
  if (error instanceof WebhookTimeoutError) return 'timeout';
  if (error instanceof WebhookTargetError) return 'refused';
  return 'network_error';
}

/** A reused kept-alive connection failed before any answer (see WebhookSender.post). */
class StaleConnectionError extends Error {
  constructor(cause: Error) {
    super('The kept-alive connection was closed by the receiver', { cause });
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(messageOf).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${code}: ${error.message}`
      : error.message;
  }
  return String(error);
}
