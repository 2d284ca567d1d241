import { generateTokenValue, hashTokenValue } from './token-value';
import { completePermissions } from '../permissions/permissions';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { ApiTokenService } from './api-token.service';
import { CoalescingApiTokenStore } from './coalescing-api-token-store';
import { SqlApiTokenStore } from './sql-api-token-store';

const MINUTE = 60_000;
let sql: SqlClient;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
});
afterAll(() => sql.close());

function serviceAt(clock: () => Date = () => new Date()): ApiTokenService {
  return new ApiTokenService(new SqlApiTokenStore(sql), { clock });
}

async function rowOf(id: string): Promise<Record<string, unknown>> {
  const { rows } = await sql.query('SELECT * FROM api_tokens WHERE id = $1', [id]);
  return rows[0];
}

describe('ApiTokenService on PostgreSQL', () => {
  it('stores the SHA-256 and last four, never the value', async () => {
    const service = serviceAt();
    const { token, value } = await service.createToken({
      name: 'Stored form',
      permissions: { detection: 'read', admin: 'none' },
      expiresInDays: 30,
      createdBy: 'test',
    });
    const row = await rowOf(token.id);
    expect(row.token_hash).toHaveLength(32);
    expect(row.last_four).toBe(value.slice(-4));
    expect(row.permissions).toEqual(completePermissions({ detection: 'read' }));
    expect(row.created_by).toBe('test');
    expect(JSON.stringify(row)).not.toContain(value.slice(5, 20));
  });

  it('lists tokens with state, dates and last four, newest first, without secrets', async () => {
    const base = new Date(Date.now() - 10 * MINUTE);
    let now = base;
    const service = serviceAt(() => now);
    const soon = await service.createToken({
      name: 'Short',
      permissions: { risk: 'read' },
      expiresInDays: 1,
    });
    now = new Date(base.getTime() + MINUTE);
    const later = await service.createToken({ name: 'Long', permissions: { risk: 'read' } });

    const listed = await service.listTokens(new Date(base.getTime() + 2 * 24 * 60 * MINUTE));
    const mine = listed.filter((t) => [soon.token.id, later.token.id].includes(t.id));
    expect(mine.map((t) => [t.name, t.state])).toEqual([
      ['Long', 'active'],
      ['Short', 'expired'],
    ]);
    expect(mine[1]).toEqual({
      id: soon.token.id,
      name: 'Short',
      permissions: completePermissions({ risk: 'read' }),
      lastFour: soon.value.slice(-4),
      createdAt: base,
      lastUsedAt: null,
      expiresAt: new Date(base.getTime() + 24 * 60 * MINUTE),
      createdBy: null,
      state: 'expired',
    });
    expect(Object.keys(mine[0])).not.toContain('tokenHash');
  });

  it('authenticates a valid token and rejects an expired one as token_expired', async () => {
    const service = serviceAt();
    const { token, value } = await service.createToken({
      name: 'Auth',
      permissions: { detection: 'write' },
      expiresInDays: 1,
    });
    expect(await service.authenticate(value)).toEqual({
      ok: true,
      principal: {
        tokenId: token.id,
        name: 'Auth',
        permissions: completePermissions({ detection: 'write' }),
      },
    });
    const afterExpiry = new Date(token.expiresAt.getTime() + 1);
    expect(await service.authenticate(value, afterExpiry)).toEqual({
      ok: false,
      code: 'token_expired',
    });
    expect(await service.authenticate(value, token.expiresAt)).toEqual({
      ok: false,
      code: 'token_expired',
    });
    await service.drain();
  });

  it('rejects unknown values and a deleted token on the very next call', async () => {
    const service = serviceAt();
    const { token, value } = await service.createToken({
      name: 'Doomed',
      permissions: { email: 'read' },
    });
    expect((await service.authenticate(value)).ok).toBe(true);
    await service.deleteToken(token.id);
    expect(await service.authenticate(value)).toEqual({ ok: false, code: 'invalid_token' });
    expect((await service.listTokens()).map((t) => t.id)).not.toContain(token.id);
    expect((await rowOf(token.id)).deleted_at).toBeInstanceOf(Date);
    expect(await service.authenticate(generateTokenValue())).toEqual({
      ok: false,
      code: 'invalid_token',
    });
  });

  it('looks up several hashes in one query, in order: known, unknown and deleted alike', async () => {
    const service = serviceAt();
    const live = await service.createToken({ name: 'Live', permissions: { detection: 'read' } });
    const gone = await service.createToken({ name: 'Gone', permissions: { detection: 'read' } });
    await service.deleteToken(gone.token.id);
    const store = new SqlApiTokenStore(sql);
    const found = await store.findLiveByHashes([
      hashTokenValue(generateTokenValue()),
      hashTokenValue(live.value),
      hashTokenValue(gone.value),
      hashTokenValue(live.value),
    ]);
    expect(found.map((token) => token?.id ?? null)).toEqual([
      null,
      live.token.id,
      null,
      live.token.id,
    ]);
    expect(found[1]).toMatchObject({ name: 'Live', tokenHash: hashTokenValue(live.value) });
    expect(await store.findLiveByHashes([])).toEqual([]);
  });

  it('coalesced, still refuses a token deleted before the request, among concurrent ones', async () => {
    const service = new ApiTokenService(new CoalescingApiTokenStore(new SqlApiTokenStore(sql)));
    const kept = await service.createToken({ name: 'Kept', permissions: { detection: 'read' } });
    const doomed = await service.createToken({
      name: 'Doomed',
      permissions: { detection: 'read' },
    });
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => service.authenticate(i % 2 ? kept.value : doomed.value)),
    );
    expect(first.every((result) => result.ok)).toBe(true);
    await service.deleteToken(doomed.token.id);
    const after = await Promise.all(
      Array.from({ length: 20 }, (_, i) => service.authenticate(i % 2 ? kept.value : doomed.value)),
    );
    expect(after.map((result) => result.ok)).toEqual(
      Array.from({ length: 20 }, (_, i) => i % 2 === 1),
    );
    await service.drain();
  });

  it('refuses to delete an unknown or malformed id with not_found', async () => {
    const service = serviceAt();
    await expect(service.deleteToken('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    await expect(service.deleteToken('not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('updates Last Used at most once a minute', async () => {
    const t0 = new Date(Date.now() - 10 * MINUTE);
    const service = serviceAt(() => t0);
    const { token, value } = await service.createToken({
      name: 'Busy',
      permissions: { risk: 'read' },
    });
    const lastUsedAfter = async (offsetMs: number) => {
      await service.authenticate(value, new Date(t0.getTime() + offsetMs));
      await service.drain();
      return (await rowOf(token.id)).last_used_at as Date;
    };
    expect(await lastUsedAfter(0)).toEqual(t0);
    expect(await lastUsedAfter(59_000)).toEqual(t0);
    expect(await lastUsedAfter(MINUTE + 1)).toEqual(new Date(t0.getTime() + MINUTE + 1));
  });

  it('guards Last Used in the UPDATE itself against concurrent requests', async () => {
    const store = new SqlApiTokenStore(sql);
    const { token } = await serviceAt().createToken({
      name: 'Racy',
      permissions: { risk: 'read' },
    });
    const at = new Date();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => store.touchLastUsed(token.id, at)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.touchLastUsed(token.id, new Date(at.getTime() + 30_000))).toBe(false);
    expect(await store.touchLastUsed(token.id, new Date(at.getTime() + MINUTE + 1))).toBe(true);
  });
});
