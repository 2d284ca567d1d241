import { settleWithin } from './settle-within';

describe('settleWithin', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers at once when nothing is under way', async () => {
    await expect(settleWithin([], 1_000)).resolves.toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('answers once every promise has settled, rejected ones included, and leaves no timer', async () => {
    let settled = false;
    let resolveSlow!: () => void;
    const slow = new Promise<void>((resolve) => {
      resolveSlow = resolve;
    });
    const wait = settleWithin([slow, Promise.reject(new Error('refused'))], 1_000).then(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(500);
    expect(settled).toBe(false);
    resolveSlow();
    await wait;
    expect(settled).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives up on a promise that never settles after the limit', async () => {
    let settled = false;
    const wait = settleWithin([new Promise<void>(() => undefined)], 1_000).then(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await wait;
    expect(settled).toBe(true);
  });
});
