import { createRequire } from 'node:module';
import { stopRequestQueueSpin } from './stop-request-queue-spin';

// kafkajs's own queue, the class every broker connection uses; no broker is needed to drive it.
interface Queue {
  push(request: {
    entry: { correlationId: number; resolve(): void; reject(error: Error): void };
    expectResponse: boolean;
    sendRequest(): void;
  }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
}
const RequestQueue = createRequire(__filename)('kafkajs/src/network/requestQueue') as new (
  options: object,
) => Queue;

const silent = { debug: () => undefined, warn: () => undefined, error: () => undefined };

function queueOf(maxInFlightRequests: number): Queue {
  return new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: 'spec:9092',
    logger: silent,
  });
}

/** Pushes a request; resolves `sent` when the queue puts it on the wire. */
function pushRequest(queue: Queue, correlationId: number) {
  let markSent = () => undefined as void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  let wasSent = false;
  queue.push({
    entry: { correlationId, resolve: () => undefined, reject: () => undefined },
    expectResponse: true,
    sendRequest: () => {
      wasSent = true;
      markSent();
    },
  });
  return { sent, wasSent: () => wasSent };
}

const answer = (queue: Queue, correlationId: number) =>
  queue.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });

describe('stopRequestQueueSpin', () => {
  beforeAll(() => stopRequestQueueSpin());

  it('leaves no timer armed once the queue is idle', () => {
    const queue = queueOf(1);
    const first = pushRequest(queue, 1);
    expect(first.wasSent()).toBe(true);
    answer(queue, 1);
    // Unpatched, this was a 1 ms timer re-armed after every check, for the connection's life.
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('sends a request held by the in-flight limit when the one before it is answered', async () => {
    const queue = queueOf(1);
    pushRequest(queue, 1);
    const second = pushRequest(queue, 2);
    expect(second.wasSent()).toBe(false);
    answer(queue, 1);
    await second.sent;
    answer(queue, 2);
    expect(queue.pending).toHaveLength(0);
    // The check armed while it waited runs once more, finds nothing and re-arms nothing.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('sends a request held by a throttle once the throttle ends', async () => {
    const queue = queueOf(5);
    queue.maybeThrottle(50);
    const started = Date.now();
    const held = pushRequest(queue, 1);
    expect(held.wasSent()).toBe(false);
    await held.sent;
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    answer(queue, 1);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('is applied once however many clients are created', () => {
    expect(() => stopRequestQueueSpin()).not.toThrow();
  });
});
