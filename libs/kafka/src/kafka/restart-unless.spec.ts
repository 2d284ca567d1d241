import { restartUnless } from './restart-unless';

describe('restartUnless', () => {
  it('lets a crashed consumer restart while it runs, and never once it is stopped', async () => {
    let stopped = false;
    const retry = restartUnless(() => stopped);
    await expect(retry.restartOnFailure!(new Error('broker gone'))).resolves.toBe(true);
    stopped = true;
    await expect(retry.restartOnFailure!(new Error('broker gone'))).resolves.toBe(false);
  });

  it("keeps kafkajs' consumer default of 5 retries", () => {
    expect(restartUnless(() => false).retries).toBe(5);
  });
});
