import { SignInThrottle } from './sign-in-throttle';

const POLICY = {
  address: { free: 4, baseSeconds: 10, capSeconds: 600 },
  account: { free: 6, baseSeconds: 10, capSeconds: 600 },
  accountAddress: { free: 2, baseSeconds: 10, capSeconds: 600 },
  memorySeconds: 3600,
};

describe('SignInThrottle (in memory)', () => {
  it('holds back an account at an address past its free failures, with a growing wait', async () => {
    const throttle = new SignInThrottle({ kind: 'memory' }, POLICY);
    expect(await throttle.recordFailure('ada@example.com', '192.0.2.1')).toEqual({ waits: [] });
    expect(await throttle.check('ada@example.com', '192.0.2.1')).toEqual({ allowed: true });
    expect(await throttle.recordFailure('ADA@example.com ', '192.0.2.1')).toEqual({
      waits: [{ limit: 'account_address', seconds: 10 }],
    });
    expect(await throttle.check('ada@example.com', '192.0.2.1')).toEqual({
      allowed: false,
      limit: 'account_address',
      retryAfterSeconds: 10,
    });
    expect((await throttle.recordFailure('ada@example.com', '192.0.2.1')).waits).toEqual([
      { limit: 'account_address', seconds: 20 },
    ]);
    expect(await throttle.check('ada@example.com', '192.0.2.2')).toEqual({ allowed: true });
  });

  it('holds back an address spraying many accounts, and no other address', async () => {
    const throttle = new SignInThrottle({ kind: 'memory' }, POLICY);
    for (const name of ['a', 'b', 'c', 'd']) {
      await throttle.recordFailure(`${name}@example.com`, '192.0.2.9');
    }
    expect(await throttle.check('e@example.com', '192.0.2.9')).toMatchObject({
      allowed: false,
      limit: 'address',
    });
    expect(await throttle.check('e@example.com', '192.0.2.10')).toEqual({ allowed: true });
  });

  it('lets the owner in from a new address while the account is under attack', async () => {
    const throttle = new SignInThrottle({ kind: 'memory' }, POLICY);
    for (let i = 0; i < 8; i++) await throttle.recordFailure('ada@example.com', `198.51.100.${i}`);
    expect(await throttle.check('ada@example.com', '203.0.113.5')).toEqual({ allowed: true });
    expect(await throttle.check('ada@example.com', '198.51.100.3')).toMatchObject({
      allowed: false,
      limit: 'account',
    });
  });

  it('forgets the account’s failures at an address after a success there, not the address’s', async () => {
    const throttle = new SignInThrottle({ kind: 'memory' }, POLICY);
    for (const name of ['ada', 'ada', 'bob', 'cy']) {
      await throttle.recordFailure(`${name}@example.com`, '192.0.2.1');
    }
    await throttle.recordSuccess('ada@example.com', '192.0.2.1');
    expect(await throttle.check('ada@example.com', '192.0.2.1')).toMatchObject({
      allowed: false,
      limit: 'address',
    });
    expect((await throttle.recordFailure('ada@example.com', '192.0.2.2')).waits).toEqual([]);
  });
});
