import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { DetectionWebhookPayload, InvestigationWebhookPayload } from '@vigil/contracts';
import { eventually, request } from './http-client';
import { WebhookReceiver, type ReceivedWebhook } from './webhook-receiver';

interface Arrival {
  webhookId: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** What the receiver answered. */
  status: number;
}

export interface DetectionArrival extends Arrival {
  kind: 'detection';
  payload: DetectionWebhookPayload;
  /** The full events behind metadata.events[].id, in the same order; null when refused. */
  enriched: Promise<Record<string, unknown>[]> | null;
}

export interface InvestigationArrival extends Arrival {
  kind: 'investigation';
  payload: InvestigationWebhookPayload;
  /** The full report of investigation_metadata.investigation_id; null when refused. */
  enriched: Promise<Record<string, unknown>> | null;
}

export type WebhookArrival = DetectionArrival | InvestigationArrival;

export interface ReceiverAccess {
  /** The provider's signing secret, shown once at enrollment. */
  secret: string;
  apiUrl: string;
  token: string;
}

/**
 * A webhook consumer as SPEC.md §6.4 describes one: it verifies the Standard Webhooks
 * signature with the provider's secret, routes on `metadata` versus `investigation_metadata`,
 * answers at once, then fetches the full details through the query API with its token.
 */
export class EnrichingWebhookReceiver {
  readonly arrivals: WebhookArrival[] = [];
  /** Requests refused before routing: a bad signature or an unknown payload shape. */
  readonly refused: ReceivedWebhook[] = [];
  private readonly failFirst = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly pending: Promise<unknown>[] = [];
  private access: ReceiverAccess | null = null;

  private constructor(
    private readonly http: WebhookReceiver,
    private readonly path: string,
  ) {
    http.on(path, (received, response) => {
      const { status, arrival } = this.receive(received);
      response.writeHead(status).end();
      if (arrival && status < 300) this.enrich(arrival);
    });
  }

  static async start(path = '/hooks'): Promise<EnrichingWebhookReceiver> {
    return new EnrichingWebhookReceiver(await WebhookReceiver.start(), path);
  }

  get url(): string {
    return this.http.url(this.path);
  }

  /** The secret exists once the provider is enrolled at `url`, the API once it is started. */
  configure(access: ReceiverAccess): void {
    this.access = access;
  }

  /** Answers 500 to the first delivery attempt that concerns this detection. */
  failFirstAttemptFor(detectionId: string): void {
    this.failFirst.add(detectionId);
  }

  /** Every attempt about a detection, accepted or not, in arrival order. */
  attemptsFor(detectionId: string): DetectionArrival[] {
    return this.arrivals.filter(
      (a): a is DetectionArrival =>
        a.kind === 'detection' && a.payload.metadata.detection_id === detectionId,
    );
  }

  /** The webhooks about a detection the receiver accepted. */
  detectionWebhooks(detectionId: string): DetectionArrival[] {
    return this.attemptsFor(detectionId).filter((a) => a.status < 300);
  }

  investigationWebhooks(investigationId: string): InvestigationArrival[] {
    return this.arrivals.filter(
      (a): a is InvestigationArrival =>
        a.kind === 'investigation' &&
        a.status < 300 &&
        a.payload.investigation_metadata.investigation_id === investigationId,
    );
  }

  /** Lets enrichment calls in flight finish, so nothing outlives the API. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }

  async stop(): Promise<void> {
    await this.settled();
    await this.http.stop();
  }

  private receive(received: ReceivedWebhook): { status: number; arrival?: WebhookArrival } {
    const access = this.requireAccess();
    const header = (name: string) => String(received.headers[name] ?? '');
    let payload: unknown;
    try {
      payload = new Webhook(access.secret).verify(received.body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      });
    } catch {
      this.refused.push(received);
      return { status: 401 };
    }
    const common = {
      webhookId: header('webhook-id'),
      headers: received.headers,
      body: received.body,
      receivedAt: Date.now(),
      status: 204,
      enriched: null,
    };
    let arrival: WebhookArrival;
    if (isObject(payload) && isObject(payload.investigation_metadata)) {
      arrival = {
        ...common,
        kind: 'investigation',
        payload: payload as unknown as InvestigationWebhookPayload,
      };
    } else if (isObject(payload) && isObject(payload.metadata)) {
      const detection = payload as unknown as DetectionWebhookPayload;
      arrival = { ...common, kind: 'detection', payload: detection };
      const detectionId = detection.metadata.detection_id;
      if (this.failFirst.has(detectionId) && !this.failed.has(detectionId)) {
        this.failed.add(detectionId);
        arrival.status = 500;
      }
    } else {
      this.refused.push(received);
      return { status: 400 };
    }
    this.arrivals.push(arrival);
    return { status: arrival.status, arrival };
  }

  private enrich(arrival: WebhookArrival): void {
    if (arrival.kind === 'detection') {
      const events = arrival.payload.metadata.events;
      arrival.enriched = Promise.all(events.map((event) => this.fetchEvent(event.id)));
      this.pending.push(arrival.enriched.catch(() => undefined));
    } else {
      arrival.enriched = this.fetchInvestigation(arrival.payload);
      this.pending.push(arrival.enriched.catch(() => undefined));
    }
  }

  /** POST /api-key/v1/events with an id filter, until the event has been indexed. */
  private fetchEvent(id: string): Promise<Record<string, unknown>> {
    const { apiUrl, token } = this.requireAccess();
    return eventually(async () => {
      const response = await request<{ items: Record<string, unknown>[] }>(
        'POST',
        `${apiUrl}/api-key/v1/events`,
        { token, json: { query: `id = '${id.replace(/'/g, "''")}'` } },
      );
      if (response.status !== 200) throw new Error(`events query answered ${response.status}`);
      return response.body.items.length === 1 ? response.body.items[0] : undefined;
    });
  }

  /** GET /api-key/v1/investigations/{id}, until the report says what the notification says. */
  private fetchInvestigation(
    payload: InvestigationWebhookPayload,
  ): Promise<Record<string, unknown>> {
    const { apiUrl, token } = this.requireAccess();
    const summary = payload.investigation_metadata;
    return eventually(async () => {
      const response = await request<Record<string, unknown>>(
        'GET',
        `${apiUrl}/api-key/v1/investigations/${encodeURIComponent(summary.investigation_id)}`,
        { token },
      );
      if (response.status === 404) return undefined;
      if (response.status !== 200) throw new Error(`investigation answered ${response.status}`);
      const report = response.body;
      const current =
        report.status === summary.status &&
        report.outcome === summary.outcome &&
        report.headline === summary.headline;
      return current ? report : undefined;
    });
  }

  private requireAccess(): ReceiverAccess {
    if (!this.access) throw new Error('configure() the receiver before webhooks arrive');
    return this.access;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
