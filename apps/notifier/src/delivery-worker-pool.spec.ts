import { attemptResult } from './delivery-worker-pool';

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
