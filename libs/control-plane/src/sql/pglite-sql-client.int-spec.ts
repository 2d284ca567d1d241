import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { controlPlaneMigrations } from '../../migrations';
import { SqlDeliveryStore } from '../deliveries/sql-delivery-store';
import { openSettingsChangeFeed } from '../notification-settings/open-settings-change-feed';
import { type SettingsChange } from '../notification-settings/notification-settings-store';
import { SqlNotificationSettingsStore } from '../notification-settings/sql-notification-settings-store';
import { SqlUserStore } from '../users/sql-user-store';
import { createPgSqlClient } from './pg-sql-client';
import { openPgliteSqlClient } from './pglite-sql-client';
import { openSqlClient } from './open-sql-client';
import { runMigrations } from './run-migrations';
import { type SqlClient } from './sql-client';
import { SqlUnavailableError } from './sql-unavailable-error';

jest.setTimeout(120_000);

const scratch = mkdtempSync(join(tmpdir(), 'vigil-pglite-'));
/** Initializing a data folder takes seconds: it is done once, and tests start from copies. */
const template = join(scratch, 'template');
let copies = 0;
function freshDataDir(): string {
  const dir = join(scratch, `db-${++copies}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  const sql = await openPgliteSqlClient(template);
  // The control-plane migrations from nothing.
  expect(await runMigrations(sql)).toEqual({ applied: controlPlaneMigrations.map((m) => m.id) });
  await sql.close();
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function until<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const backends: [string, () => Promise<SqlClient>][] = [
  ['PostgreSQL', async () => createPgSqlClient(process.env.DATABASE_URL!, 4)],
  ['PGlite', async () => openPgliteSqlClient(freshDataDir())],
];

describe.each(backends)('SqlClient on %s', (_name, open) => {
  let sql: SqlClient;
  const table = `t_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    sql = await open();
    await runMigrations(sql);
  });

  afterAll(async () => {
    await sql.exec(`DROP TABLE IF EXISTS ${table}`);
    await sql.close();
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await sql.exec(`CREATE TABLE ${table} (id int PRIMARY KEY, b bytea, n bigint, j jsonb)`);
    await sql.transaction((tx) => tx.query(`INSERT INTO ${table} (id) VALUES (1)`));
    await expect(
      sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} (id) VALUES (2)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await sql.query(`SELECT id FROM ${table}`)).rows).toEqual([{ id: 1 }]);
  });

  it('reads and writes values as pg does: bigint as text, bytea as Buffer, json as given', async () => {
    const result = await sql.query(
      `INSERT INTO ${table} (id, b, n, j) VALUES (3, $1, $2, $3::jsonb) RETURNING b, n, j`,
      [Buffer.from('abc'), '9007199254740993', JSON.stringify({ a: [1, 'x'] })],
    );
    expect(result.rowCount).toBe(1);
    const row = result.rows[0];
    expect(Buffer.isBuffer(row.b) && row.b.equals(Buffer.from('abc'))).toBe(true);
    expect(row.n).toBe('9007199254740993');
    expect(row.j).toEqual({ a: [1, 'x'] });
    const updated = await sql.query(`UPDATE ${table} SET n = 1 WHERE id IN (1, 3)`);
    expect(updated.rowCount).toBe(2);
    const counted = await sql.query(`SELECT count(*) AS n FROM ${table}`);
    expect([counted.rowCount, counted.rows]).toEqual([1, [{ n: '2' }]]);
  });

  it('reports a unique violation with its SQLSTATE and constraint', async () => {
    const error: unknown = await sql
      .query(`INSERT INTO ${table} (id) VALUES (1)`)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SqlUnavailableError);
    expect(error).toMatchObject({ code: '23505', constraint: `${table}_pkey` });
  });

  it('supports what the control plane uses: advisory locks, SKIP LOCKED, COLLATE "C", arrays', async () => {
    const locked = await sql.transaction((tx) =>
      tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1::bigint) AS locked', [
        '42',
      ]),
    );
    expect(locked.rows).toEqual([{ locked: true }]);
    const ordered = await sql.query<{ v: string }>(
      `SELECT v FROM unnest($1::text[]) v ORDER BY v COLLATE "C"`,
      [['b', 'B', 'é', 'a']],
    );
    expect(ordered.rows.map((r) => r.v)).toEqual(['B', 'a', 'b', 'é']);
    const deliveries = new SqlDeliveryStore(sql);
    await sql.transaction((tx) =>
      deliveries.insert(tx, [
        {
          id: '00000000-0000-4000-8000-000000000001',
          notificationId: 'n-1',
          kind: 'detection',
          channel: 'webhook',
          target: 'provider-1',
          subjectId: 'det-1',
          payload: { title: 'x' },
        },
      ]),
    );
    const claimed = await deliveries.claimDue(10, 60_000);
    expect(claimed.map((d): unknown[] => [d.notificationId, JSON.parse(d.payload)])).toEqual([
      ['n-1', { title: 'x' }],
    ]);
    expect(await deliveries.claimDue(10, 60_000)).toEqual([]);
  });

  it('keeps ON CONFLICT DO NOTHING semantics of the stores', async () => {
    const users = new SqlUserStore(sql);
    const user = {
      email: `u${table}@example.com`,
      name: 'U',
      role: 'member' as const,
      passwordHash: 'x',
      createdAt: new Date(),
    };
    expect(await users.insert(user)).toMatchObject({ email: user.email });
    expect(await users.insert(user)).toBeNull();
  });
});

describe('openPgliteSqlClient', () => {
  it('keeps data in its folder across a restart', async () => {
    const dir = freshDataDir();
    const first = await openPgliteSqlClient(dir);
    await first.exec('CREATE TABLE kept (v text)');
    await first.query('INSERT INTO kept VALUES ($1)', ['still here']);
    await first.close();
    const second = await openPgliteSqlClient(dir);
    try {
      expect((await second.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
      expect(await runMigrations(second)).toEqual({ applied: [] });
    } finally {
      await second.close();
    }
  });

  it('shares one database between the clients of a folder and closes it with the last', async () => {
    const dir = freshDataDir();
    const a = await openPgliteSqlClient(dir);
    const b = await openPgliteSqlClient(dir);
    await a.exec('CREATE TABLE shared (v int)');
    await b.query('INSERT INTO shared VALUES (1)');
    await a.close();
    expect((await b.query('SELECT v FROM shared')).rows).toEqual([{ v: 1 }]);
    await expect(a.query('SELECT 1')).rejects.toBeInstanceOf(SqlUnavailableError);
    await b.close();
    const c = await openPgliteSqlClient(dir);
    expect((await c.query('SELECT count(*)::int AS n FROM shared')).rows).toEqual([{ n: 1 }]);
    await c.close();
  });

  it('runs a transaction alone: other queries wait until it commits', async () => {
    const dir = freshDataDir();
    const a = await openPgliteSqlClient(dir);
    const b = await openPgliteSqlClient(dir);
    try {
      await a.exec('CREATE TABLE seen (v int)');
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const tx = a.transaction(async (t) => {
        await t.query('INSERT INTO seen VALUES (1)');
        order.push('tx wrote');
        await gate;
        await t.query('INSERT INTO seen VALUES (2)');
        order.push('tx done');
      });
      await until(() => (order.length > 0 ? true : undefined));
      const read = b.query<{ n: number }>('SELECT count(*)::int AS n FROM seen').then((r) => {
        order.push(`read ${r.rows[0].n}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await Promise.all([tx, read]);
      expect(order).toEqual(['tx wrote', 'tx done', 'read 2']);
      // A query on the client itself from inside its transaction would wait forever: it fails.
      await expect(a.transaction(() => a.query('SELECT 1'))).rejects.toThrow(
        /inside its own transaction/,
      );
      expect((await a.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('openSqlClient and openSettingsChangeFeed without a database URL', () => {
  it('announce a committed settings change, and none of a rolled back one', async () => {
    // openSqlClient keeps the embedded database in the data folder's `postgres` folder.
    const dataDir = join(scratch, `data-${++copies}`);
    cpSync(freshDataDir(), join(dataDir, 'postgres'), { recursive: true });
    const sql = await openSqlClient({ poolSize: 2, dataDir });
    const writer = await openSqlClient({ poolSize: 2, dataDir });
    const feed = openSettingsChangeFeed({ sql });
    const heard: (SettingsChange | 'resync')[] = [];
    try {
      await feed.start({ onChange: (c) => heard.push(c), onResync: () => heard.push('resync') });
      const store = new SqlNotificationSettingsStore(writer);
      await store.saveGlobal({ ...DEFAULT_NOTIFICATION_SETTINGS, batchWindowMinutes: 15 });
      await until(() => (heard.length > 0 ? true : undefined));
      await expect(
        writer.transaction(async (tx) => {
          await tx.query('SELECT pg_notify($1, $2)', [
            'vigil_settings',
            JSON.stringify({ scope: 'detection', detectionId: 'det-rolled-back' }),
          ]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await store.saveDetectionConfig('det-1', { useCustom: false, custom: null });
      await until(() => (heard.length > 1 ? true : undefined));
      expect(heard).toEqual([{ scope: 'global' }, { scope: 'detection', detectionId: 'det-1' }]);
    } finally {
      await feed.stop();
      await writer.close();
      await sql.close();
    }
  });
});
