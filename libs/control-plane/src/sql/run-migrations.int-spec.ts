import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { controlPlaneMigrations } from '../../migrations';
import { createPgSqlClient } from './pg-sql-client';
import { MigrationError, runMigrations } from './run-migrations';
import { type SqlClient } from './sql-client';
import { SqlUnavailableError } from './sql-unavailable-error';

/** Each test gets an empty database next to the run's own, so migrations start from nothing. */
async function withScratchDatabase(test: (url: string) => Promise<void>): Promise<void> {
  const runUrl = new URL(process.env.DATABASE_URL!);
  const name = `${runUrl.pathname.slice(1)}_m${randomBytes(4).toString('hex')}`;
  const adminUrl = new URL(runUrl);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(runUrl);
    url.pathname = `/${name}`;
    await test(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

async function tablesOf(client: SqlClient): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

describe('runMigrations against PostgreSQL', () => {
  it('creates the schema once and is a no-op the second time', async () => {
    await withScratchDatabase(async (url) => {
      const client = createPgSqlClient(url, 2);
      try {
        const ids = controlPlaneMigrations.map((m) => m.id);
        expect(await runMigrations(client)).toEqual({ applied: ids });
        expect(await tablesOf(client)).toEqual(
          expect.arrayContaining(['api_tokens', 'schema_migrations']),
        );
        expect(await runMigrations(client)).toEqual({ applied: [] });
        const { rows } = await client.query('SELECT id FROM schema_migrations ORDER BY id');
        expect(rows).toEqual(ids.map((id) => ({ id })));
      } finally {
        await client.close();
      }
    });
  });

  it('applies each migration exactly once when several runners start at once', async () => {
    // Not idempotent on purpose: applying any of these twice fails.
    const migrations = [
      { id: '0001_first', sql: 'CREATE TABLE first (id int); SELECT pg_sleep(0.2);' },
      { id: '0002_second', sql: 'ALTER TABLE first ADD COLUMN extra text;' },
      { id: '0003_third', sql: 'CREATE TABLE third (id int); INSERT INTO third VALUES (1);' },
    ];
    await withScratchDatabase(async (url) => {
      const clients = [1, 2, 3, 4].map(() => createPgSqlClient(url, 2));
      try {
        const reports = await Promise.all(clients.map((c) => runMigrations(c, { migrations })));
        const applied = reports.flatMap((r) => r.applied).sort();
        expect(applied).toEqual(['0001_first', '0002_second', '0003_third']);
        const { rows } = await clients[0].query('SELECT count(*)::int AS n FROM third');
        expect(rows).toEqual([{ n: 1 }]);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });
  });

  it('rolls back a failing migration entirely and keeps the earlier ones', async () => {
    await withScratchDatabase(async (url) => {
      const client = createPgSqlClient(url, 2);
      try {
        const migrations = [
          { id: '0001_ok', sql: 'CREATE TABLE ok (id int);' },
          { id: '0002_broken', sql: 'CREATE TABLE half (id int); SELECT * FROM missing_table;' },
        ];
        await expect(runMigrations(client, { migrations })).rejects.toThrow(/missing_table/);
        expect(await tablesOf(client)).toEqual(['ok', 'schema_migrations']);
        const { rows } = await client.query('SELECT id FROM schema_migrations');
        expect(rows).toEqual([{ id: '0001_ok' }]);
      } finally {
        await client.close();
      }
    });
  });

  it('refuses to run when an applied migration was edited', async () => {
    await withScratchDatabase(async (url) => {
      const client = createPgSqlClient(url, 2);
      try {
        await runMigrations(client, {
          migrations: [{ id: '0001_a', sql: 'CREATE TABLE a (id int);' }],
        });
        await expect(
          runMigrations(client, { migrations: [{ id: '0001_a', sql: 'CREATE TABLE a (x int);' }] }),
        ).rejects.toBeInstanceOf(MigrationError);
      } finally {
        await client.close();
      }
    });
  });
});

describe('createPgSqlClient', () => {
  it('reports an unreachable server as SqlUnavailableError', async () => {
    const client = createPgSqlClient('postgres://postgres@127.0.0.1:1/nowhere', 1);
    try {
      await expect(client.query('SELECT 1')).rejects.toBeInstanceOf(SqlUnavailableError);
      await expect(client.transaction(async () => 1)).rejects.toBeInstanceOf(SqlUnavailableError);
    } finally {
      await client.close();
    }
  });

  it('reports a missing database as SqlUnavailableError and a bad query as itself', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/vigil_no_such_database';
    const missing = createPgSqlClient(url.toString(), 1);
    const client = createPgSqlClient(process.env.DATABASE_URL!, 1);
    try {
      await expect(missing.query('SELECT 1')).rejects.toBeInstanceOf(SqlUnavailableError);
      const error: unknown = await client
        .query('SELECT * FROM no_such_table')
        .catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(SqlUnavailableError);
      expect(error).toMatchObject({ code: '42P01' });
    } finally {
      await Promise.all([missing.close(), client.close()]);
    }
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const client = createPgSqlClient(process.env.DATABASE_URL!, 2);
    const table = `tx_${randomBytes(4).toString('hex')}`;
    try {
      await client.exec(`CREATE TABLE ${table} (id int)`);
      await client.transaction((tx) => tx.query(`INSERT INTO ${table} VALUES (1)`));
      await expect(
        client.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} VALUES (2)`);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const { rows } = await client.query(`SELECT id FROM ${table}`);
      expect(rows).toEqual([{ id: 1 }]);
    } finally {
      await client.exec(`DROP TABLE IF EXISTS ${table}`);
      await client.close();
    }
  });
});
