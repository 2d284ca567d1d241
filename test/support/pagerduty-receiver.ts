import {
  isJsonRequest,
  isObject,
  jsonObjectOf,
  ServiceReceiver,
  type ServiceAnswer,
  type ServiceRequest,
} from './service-receiver';

export type PagerDutyForcedStatus = 400 | 429 | 500 | 502 | 503;

/**
 * A stand-in for PagerDuty's Events API v2 (`POST /v2/enqueue`) that checks an event as
 * PagerDuty documents it (developer.pagerduty.com, "Send an Alert Event" and "Overview") and
 * answers like it: 202 `{status: "success", message: "Event processed", dedup_key}`, or 400
 * `{status: "invalid event", message: "Event object is invalid", errors: [...]}`. `failNext`
 * makes it answer 429 or a 5xx (or 400) to the next requests, for the notifier's retries.
 */
export class PagerDutyReceiver {
  static readonly PATH = '/v2/enqueue';
  /** Events PagerDuty would have processed. */
  readonly accepted: Record<string, unknown>[] = [];
  private readonly forced: PagerDutyForcedStatus[] = [];
  private generatedKeys = 0;
  private readonly receiver = new ServiceReceiver((request) => this.answer(request));

  static async start(): Promise<PagerDutyReceiver> {
    const pagerDuty = new PagerDutyReceiver();
    await pagerDuty.receiver.listen();
    return pagerDuty;
  }

  eventsUrl(): string {
    return this.receiver.url(PagerDutyReceiver.PATH);
  }

  get received(): ServiceRequest[] {
    return this.receiver.received;
  }

  /** The next `times` requests get `status`, whatever they hold. */
  failNext(status: PagerDutyForcedStatus, times = 1): void {
    for (let i = 0; i < times; i++) this.forced.push(status);
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }

  private answer(request: ServiceRequest): ServiceAnswer {
    if (request.url !== PagerDutyReceiver.PATH) return json(404, { status: 'not found' });
    const forced = this.forced.shift();
    if (forced === 429) {
      return json(429, {
        status: 'throttle event',
        message: 'Requests for this service are arriving too quickly.  Please retry later.',
      });
    }
    if (forced !== undefined && forced >= 500) {
      return json(forced, { status: 'error', message: 'Internal server error' });
    }
    if (forced === 400) return invalid(['Forced by the test']);
    if (request.method !== 'POST') return json(405, { status: 'method not allowed' });
    if (Buffer.byteLength(request.body, 'utf8') > 512_000) {
      return invalid(['Event payload is larger than 512 KB']);
    }
    if (!isJsonRequest(request)) return invalid(["Content-Type must be 'application/json'"]);
    const event = jsonObjectOf(request.body);
    if (!event) return invalid(['Event is not a JSON object']);
    const errors = pagerDutyEventErrors(event);
    if (errors.length > 0) return invalid(errors);
    this.accepted.push(event);
    const dedupKey =
      typeof event.dedup_key === 'string'
        ? event.dedup_key
        : `generated${String(++this.generatedKeys).padStart(23, '0')}`;
    return json(202, { status: 'success', message: 'Event processed', dedup_key: dedupKey });
  }
}

function json(status: number, body: unknown): ServiceAnswer {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

function invalid(errors: string[]): ServiceAnswer {
  return json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
}

const SEVERITIES = ['critical', 'error', 'warning', 'info'];
const ACTIONS = ['trigger', 'acknowledge', 'resolve'];

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/** What PagerDuty would say is wrong with an event; empty when it would process it. */
export function pagerDutyEventErrors(event: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const key = event.routing_key;
  if (typeof key !== 'string' || key.length !== 32) {
    errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  }
  if (typeof key === 'string' && /[^A-Za-z0-9]/.test(key)) {
    errors.push("'routing_key' cannot contain non-alphanumeric characters.");
  }
  if (!ACTIONS.includes(event.event_action as string)) {
    errors.push(`'event_action' must be one of ${ACTIONS.join(', ')}`);
  }
  if (event.dedup_key !== undefined) {
    if (typeof event.dedup_key !== 'string') errors.push("'dedup_key' must be a string");
    else if (event.dedup_key.length > 255) errors.push("'dedup_key' is longer than 255 characters");
  } else if (event.event_action === 'acknowledge' || event.event_action === 'resolve') {
    errors.push("'dedup_key' is required to acknowledge or resolve");
  }
  if (event.event_action === 'trigger') errors.push(...payloadErrors(event.payload));
  errors.push(...contextErrors(event));
  return errors;
}

function payloadErrors(payload: unknown): string[] {
  if (!isObject(payload)) return ["'payload' is missing or not an object"];
  const errors: string[] = [];
  if (blank(payload.summary)) errors.push("'payload.summary' is missing or blank");
  else if ((payload.summary as string).length > 1024) {
    errors.push("'payload.summary' is longer than 1024 characters");
  }
  if (blank(payload.source)) errors.push("'payload.source' is missing or blank");
  if (!SEVERITIES.includes(payload.severity as string)) {
    errors.push(`'payload.severity' must be one of ${SEVERITIES.join(', ')}`);
  }
  if (payload.timestamp !== undefined) {
    const ok =
      typeof payload.timestamp === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(payload.timestamp) &&
      !Number.isNaN(Date.parse(payload.timestamp));
    if (!ok) errors.push("'payload.timestamp' is not an ISO 8601 timestamp");
  }
  for (const field of ['component', 'group', 'class']) {
    if (payload[field] !== undefined && typeof payload[field] !== 'string') {
      errors.push(`'payload.${field}' must be a string`);
    }
  }
  const details = payload.custom_details;
  if (details !== undefined && !isObject(details) && typeof details !== 'string') {
    errors.push("'payload.custom_details' must be an object");
  }
  return errors;
}

function contextErrors(event: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (event.links !== undefined) {
    const ok =
      Array.isArray(event.links) &&
      (event.links as unknown[]).every(
        (link) =>
          isObject(link) &&
          typeof link.href === 'string' &&
          (link.text === undefined || typeof link.text === 'string'),
      );
    if (!ok) errors.push("'links' must be a list of objects with an href");
  }
  if (event.images !== undefined) {
    const ok =
      Array.isArray(event.images) &&
      (event.images as unknown[]).every(
        (image) =>
          isObject(image) && typeof image.src === 'string' && image.src.startsWith('https://'),
      );
    if (!ok) errors.push("'images' must be a list of objects with an https src");
  }
  for (const field of ['client', 'client_url']) {
    if (event[field] !== undefined && typeof event[field] !== 'string') {
      errors.push(`'${field}' must be a string`);
    }
  }
  return errors;
}
