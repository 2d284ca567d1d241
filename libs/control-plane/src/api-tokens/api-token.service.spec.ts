import { randomUUID } from 'node:crypto';
import { completePermissions } from '../permissions/permissions';
import { type ApiTokenRecord } from './api-token';
import { type ApiTokenStore, type NewApiToken, type StoredApiToken } from './api-token-store';
import { ApiTokenService } from './api-token.service';
import { TokenError } from './token-error';
import { generateTokenValue } from './token-value';

/** An in-memory ApiTokenStore (our own port) that records what the service asked of it. */
class InMemoryTokenStore implements ApiTokenStore {
  readonly rows: (StoredApiToken & { deletedAt: Date | null })[] = [];
  lookups = 0;
  touches: { id: string; at: Date }[] = [];
  failTouches = false;

  async insert(token: NewApiToken): Promise<ApiTokenRecord> {
    const row = { ...token, id: randomUUID(), lastUsedAt: null, deletedAt: null };
    this.rows.push(row);
    const { tokenHash: _hash, deletedAt: _deleted, ...record } = row;
    return record;
  }
  async listLive(): Promise<ApiTokenRecord[]> {
    return this.rows.filter((r) => r.deletedAt === null);
  }
  async findLiveByHash(tokenHash: Buffer): Promise<StoredApiToken | null> {
    this.lookups++;
    return this.rows.find((r) => r.deletedAt === null && r.tokenHash.equals(tokenHash)) ?? null;
  }
  async findLiveByHashes(tokenHashes: readonly Buffer[]): Promise<(StoredApiToken | null)[]> {
    return Promise.all(tokenHashes.map((hash) => this.findLiveByHash(hash)));
  }
  async markDeleted(id: string, at: Date): Promise<boolean> {
    const row = this.rows.find((r) => r.id === id && r.deletedAt === null);
    if (row) row.deletedAt = at;
    return row !== undefined;
  }
  async touchLastUsed(id: string, at: Date): Promise<boolean> {
    this.touches.push({ id, at });
    if (this.failTouches) throw new Error('database went away');
    const index = this.rows.findIndex((r) => r.id === id);
    this.rows[index] = { ...this.rows[index], lastUsedAt: at };
    return true;
  }
}

const start = new Date('2025-06-01T12:00:00Z');
const MINUTE = 60_000;

function setUp() {
  const store = new InMemoryTokenStore();
  const warnings: object[] = [];
  const logger = {
    info: () => undefined,
    error: () => undefined,
    warn: (o: object) => warnings.push(o),
  };
  let now = start;
  const service = new ApiTokenService(store, { clock: () => now, logger });
  return { store, service, warnings, setNow: (d: Date) => (now = d) };
}

describe('ApiTokenService', () => {
  it('creates a token, returns the value once and stores only its hash and last four', async () => {
    const { store, service } = setUp();
    const { token, value } = await service.createToken({
      name: 'SIEM',
      permissions: { detection: 'read' },
      createdBy: 'cli',
    });
    expect(value).toMatch(/^vgk1-/);
    expect(token).toMatchObject({ name: 'SIEM', state: 'active', lastFour: value.slice(-4) });
    expect(JSON.stringify(store.rows)).not.toContain(value);
    expect(store.rows[0].tokenHash).toHaveLength(32);
  });

  it('refuses an invalid request without storing anything', async () => {
    const { store, service } = setUp();
    await expect(service.createToken({ name: '', permissions: {} })).rejects.toBeInstanceOf(
      TokenError,
    );
    expect(store.rows).toHaveLength(0);
  });

  it('authenticates a valid token as its principal', async () => {
    const { service } = setUp();
    const { token, value } = await service.createToken({
      name: 'a',
      permissions: { risk: 'write' },
    });
    expect(await service.authenticate(value)).toEqual({
      ok: true,
      principal: {
        tokenId: token.id,
        name: 'a',
        permissions: completePermissions({ risk: 'write' }),
      },
    });
  });

  it('rejects a mistyped value without looking it up', async () => {
    const { store, service } = setUp();
    const { value } = await service.createToken({ name: 'a', permissions: { risk: 'write' } });
    const typo = value.slice(0, 10) + (value[10] === 'a' ? 'b' : 'a') + value.slice(11);
    expect(await service.authenticate(typo)).toEqual({ ok: false, code: 'invalid_token' });
    expect(await service.authenticate('Bearer nonsense')).toEqual({
      ok: false,
      code: 'invalid_token',
    });
    expect(store.lookups).toBe(0);
  });

  it('looks up a well-formed unknown value and rejects it as invalid', async () => {
    const { store, service } = setUp();
    expect(await service.authenticate(generateTokenValue())).toEqual({
      ok: false,
      code: 'invalid_token',
    });
    expect(store.lookups).toBe(1);
  });

  it('rejects a token past its Expires At as expired, and lists it as expired', async () => {
    const { service, setNow } = setUp();
    const { value } = await service.createToken({
      name: 'a',
      permissions: { risk: 'read' },
      expiresInDays: 1,
    });
    setNow(new Date(start.getTime() + 24 * 60 * MINUTE));
    expect(await service.authenticate(value)).toEqual({ ok: false, code: 'token_expired' });
    expect((await service.listTokens()).map((t) => t.state)).toEqual(['expired']);
  });

  it('rejects a deleted token on the next call and no longer lists it', async () => {
    const { service } = setUp();
    const { token, value } = await service.createToken({
      name: 'a',
      permissions: { risk: 'read' },
    });
    await service.deleteToken(token.id);
    expect(await service.authenticate(value)).toEqual({ ok: false, code: 'invalid_token' });
    expect(await service.listTokens()).toEqual([]);
    await expect(service.deleteToken(token.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('records Last Used at most once a minute', async () => {
    const { store, service } = setUp();
    const { value } = await service.createToken({ name: 'a', permissions: { risk: 'read' } });
    for (const offset of [0, 10_000, 59_000, MINUTE, MINUTE + 30_000, 2 * MINUTE + 1]) {
      await service.authenticate(value, new Date(start.getTime() + offset));
      await service.drain();
    }
    expect(store.touches.map((t) => t.at.getTime() - start.getTime())).toEqual([
      0,
      MINUTE,
      2 * MINUTE + 1,
    ]);
  });

  it('still authenticates when recording Last Used fails, and logs the failure', async () => {
    const { store, service, warnings } = setUp();
    const { value } = await service.createToken({ name: 'a', permissions: { risk: 'read' } });
    store.failTouches = true;
    expect((await service.authenticate(value)).ok).toBe(true);
    await service.drain();
    expect(warnings).toHaveLength(1);
  });

  it('lets store failures reach the caller so it can fail closed', async () => {
    const { store, service } = setUp();
    store.findLiveByHash = () => Promise.reject(new Error('down'));
    await expect(service.authenticate(generateTokenValue())).rejects.toThrow('down');
  });
});
