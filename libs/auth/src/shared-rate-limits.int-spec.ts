import { randomUUID } from 'node:crypto';
import {
  SqlUnavailableError,
  createPgSqlClient,
  runMigrations,
  type PgSqlClient,
} from '@vigil/control-plane';
import { rateLimitStoreFor } from './rate-limit-store';
import { createTokenRateLimiter } from './create-token-rate-limiter';
import { type TokenRateLimiter } from './token-rate-limiter';

jest.setTimeout(60_000);

/** What a caller sees of each request: allowed or not, and what is left. */
async function spend(limiter: TokenRateLimiter, tokenId: string) {
  const decision = await limiter.consume(tokenId);
  return decision.allowed ? `ok ${decision.remaining}` : `refused ${decision.retryAfterSeconds}s`;
}

describe('token rate limits in PostgreSQL', () => {
  // Two instances: each its own pool, as two API processes would have.
  let first: PgSqlClient;
  let second: PgSqlClient;

  beforeAll(async () => {
    first = createPgSqlClient(process.env.DATABASE_URL!, 2);
    second = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(first);
  });

  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const limiterOn = (sql: PgSqlClient, pointsPerMinute: number, name = 'api') =>
    createTokenRateLimiter({ name, pointsPerMinute, store: rateLimitStoreFor(sql) });

  it('spends one budget per token, whichever instance counts the request', async () => {
    const instances = [limiterOn(first, 4), limiterOn(second, 4)];
    const token = randomUUID();
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await spend(instances[i % 2], token));
    expect(outcomes.slice(0, 4)).toEqual(['ok 3', 'ok 2', 'ok 1', 'ok 0']);
    expect(outcomes.slice(4).map((o) => o.split(' ')[0])).toEqual(['refused', 'refused']);
  });

  it('lets exactly the budget through when both instances are hit at the same moment', async () => {
    const instances = [limiterOn(first, 10), limiterOn(second, 10)];
    const token = randomUUID();
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => instances[i % 2].consume(token)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });

  it('keeps a spent budget across a restart of the instance', async () => {
    const token = randomUUID();
    const before = limiterOn(first, 2);
    await before.consume(token);
    await before.consume(token);
    const restarted = limiterOn(first, 2);
    expect((await spend(restarted, token)).startsWith('refused')).toBe(true);
  });

  it('keeps the budgets of differently named limiters apart', async () => {
    const token = randomUUID();
    const api = limiterOn(first, 1, 'api');
    const ingest = limiterOn(first, 1, 'ingest');
    expect(await spend(api, token)).toBe('ok 0');
    expect(await spend(ingest, token)).toBe('ok 0');
  });

  it('counts in the migrated table, keyed by limiter and token, with the window end', async () => {
    const token = randomUUID();
    await limiterOn(first, 5).consume(token);
    const { rows } = await first.query<{ points: number; expire: string }>(
      'SELECT points, expire FROM rate_limits WHERE key = $1',
      [`api:${token}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].points).toBe(1);
    const windowEnd = Number(rows[0].expire) - Date.now();
    expect(windowEnd).toBeGreaterThan(50_000);
    expect(windowEnd).toBeLessThanOrEqual(60_000);
  });

  it('reports an unreachable database as SqlUnavailableError, never as an allowed request', async () => {
    const down = createPgSqlClient('postgres://postgres@127.0.0.1:1/nowhere', 1, {
      connectionTimeoutMillis: 500,
    });
    try {
      await expect(limiterOn(down, 5).consume(randomUUID())).rejects.toBeInstanceOf(
        SqlUnavailableError,
      );
    } finally {
      await down.close();
    }
  });
});
