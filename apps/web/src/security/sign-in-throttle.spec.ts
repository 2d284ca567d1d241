import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  it('refuses an account and address after too many failures, with a retry delay', async () => {
    const throttle = new SignInThrottle({ perAccount: 3, perAddress: 100, windowSeconds: 600 });
    for (let i = 0; i < 3; i++) {
      expect(await throttle.check('ada@example.com', '10.0.0.1')).toEqual({ allowed: true });
      await throttle.recordFailure('ada@example.com', '10.0.0.1');
    }
    const refused = await throttle.check('ADA@example.com', '10.0.0.1');
    expect(refused).toMatchObject({ allowed: false });
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(590);
    expect(await throttle.check('ada@example.com', '10.0.0.2')).toEqual({ allowed: true });
  });

  it('refuses an address trying many emails', async () => {
    const throttle = new SignInThrottle({ perAccount: 5, perAddress: 4 });
    for (const name of ['a', 'b', 'c', 'd']) {
      await throttle.recordFailure(`${name}@example.com`, '10.0.0.9');
    }
    expect((await throttle.check('e@example.com', '10.0.0.9')).allowed).toBe(false);
  });

  it('forgets an account’s failures after a successful sign-in', async () => {
    const throttle = new SignInThrottle({ perAccount: 2 });
    await throttle.recordFailure('ada@example.com', '10.0.0.1');
    await throttle.recordFailure('ada@example.com', '10.0.0.1');
    await throttle.recordSuccess('ada@example.com', '10.0.0.1');
    expect(await throttle.check('ada@example.com', '10.0.0.1')).toEqual({ allowed: true });
  });
});
