import { createLogger } from '@vigil/config';
import type { ClaimedDelivery, SqlDeliveryStore } from '@vigil/control-plane';
import { DeliveryWorkerPool, attemptResult } from './delivery-worker-pool';

const schedule = [200, 400];

describe('attemptResult', () => {
  it('marks a successful attempt delivered', () => {
    expect(attemptResult({ ok: true, statusCode: 200, error: null }, 1, schedule)).toEqual({
      status: 'delivered',
    });
  });

  it('schedules the next retry of the series, then gives up', () => {
    const failed = { ok: false, statusCode: 500, error: 'HTTP 500' };
    const first = attemptResult(failed, 0, schedule);
    const second = attemptResult(failed, 1, schedule);
    expect(first.status === 'retry' && first.delayMs >= 200 && first.delayMs <= 220).toBe(true);
    expect(second.status === 'retry' && second.delayMs >= 400 && second.delayMs <= 440).toBe(true);
    expect(attemptResult(failed, 2, schedule)).toEqual({ status: 'dead' });
  });

  it('does not retry a permanent failure', () => {
    expect(
      attemptResult(
        { ok: false, statusCode: null, error: 'deleted', permanent: true },
        0,
        schedule,
      ),
    ).toEqual({ status: 'dead' });
  });
});

describe('DeliveryWorkerPool', () => {
  afterEach(() => jest.useRealTimers());

  it('does not lose a wake-up that arrives while it claims after an idle poll timed out', async () => {
    jest.useFakeTimers();
    let claims = 0;
    let finishSecondClaim: () => void = () => undefined;
    const store = {
      releaseExpiredLeases: async () => 0,
      claimDue: async (): Promise<ClaimedDelivery[]> => {
        claims += 1;
        if (claims === 2) await new Promise<void>((resolve) => (finishSecondClaim = resolve));
        return [];
      },
      recordAttempt: async () => true,
      release: async () => undefined,
    };
    const send = async () => ({ ok: true as const, statusCode: 204, error: null });
    const pool = new DeliveryWorkerPool({
      store: store as unknown as SqlDeliveryStore,
      senders: { webhook: send, email: send },
      concurrency: 2,
      retrySchedule: [],
      leaseMs: 600_000,
      pollIntervalMs: 1_000,
      logger: createLogger('delivery-worker-pool-spec', 'silent'),
    });
    pool.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toBe(1);

    // The idle wait ends by its timer; the next claim is in flight when new deliveries commit.
    await jest.advanceTimersByTimeAsync(1_000);
    expect(claims).toBe(2);
    pool.wake();
    finishSecondClaim();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toBe(3);

    await pool.stop();
  });
});
