import { createPgSqlClient, type PgSqlClient } from './pg-sql-client';
import { SqlUnavailableError } from './sql-unavailable-error';

let sql: PgSqlClient;

beforeAll(() => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
});
afterAll(() => sql.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the PostgreSQL client', () => {
  it('fails a transaction whose connection the server drops between two queries, without crashing', async () => {
    const unheard: unknown[] = [];
    const onUncaught = (error: unknown) => unheard.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // Another connection ends this one while the transaction waits on something else.
        await sql.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        await pause(200);
        await tx.query('SELECT 1');
      });
      await expect(outcome).rejects.toBeInstanceOf(SqlUnavailableError);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(unheard).toEqual([]);
    // The broken connection left the pool: the next transactions get working ones.
    for (let i = 0; i < 3; i++) {
      await expect(
        sql.transaction(async (tx) => (await tx.query<{ one: number }>('SELECT 1 AS one')).rows),
      ).resolves.toEqual([{ one: 1 }]);
    }
  });

  it('gives every connection of the pool its session settings', async () => {
    const tuned = createPgSqlClient(process.env.DATABASE_URL!, 2, {
      sessionSettings: { enable_bitmapscan: 'off', work_mem: '8MB' },
    });
    try {
      const settings = async () =>
        (
          await tuned.query<{ bitmap: string; work_mem: string }>(
            `SELECT current_setting('enable_bitmapscan') AS bitmap,
                    current_setting('work_mem') AS work_mem`,
          )
        ).rows[0];
      // Queries at once, so more than one connection of the pool answers.
      const both = await Promise.all([settings(), settings()]);
      expect(both).toEqual([
        { bitmap: 'off', work_mem: '8MB' },
        { bitmap: 'off', work_mem: '8MB' },
      ]);
      expect(await tuned.transaction((tx) => tx.query(`SHOW enable_bitmapscan`))).toMatchObject({
        rows: [{ enable_bitmapscan: 'off' }],
      });
    } finally {
      await tuned.close();
    }
    expect((await sql.query(`SHOW enable_bitmapscan`)).rows).toEqual([{ enable_bitmapscan: 'on' }]);
  });

  it('prepares a named statement once per connection and answers it like any other', async () => {
    const single = createPgSqlClient(process.env.DATABASE_URL!, 1);
    try {
      const text = 'SELECT $1::int + 1 AS next';
      const named = (n: number) =>
        single.query<{ next: number }>(text, [n], { prepareAs: 'next_n' });
      expect((await named(1)).rows).toEqual([{ next: 2 }]);
      expect((await named(41)).rows).toEqual([{ next: 42 }]);
      expect((await single.query<{ next: number }>(text, [6])).rows).toEqual([{ next: 7 }]);
      // One connection: the statement the server holds for it, prepared once and used since.
      const { rows } = await single.query<{ statement: string }>(
        'SELECT statement FROM pg_prepared_statements WHERE name = $1',
        ['next_n'],
      );
      expect(rows).toEqual([{ statement: text }]);
      await single.transaction(async (tx) => {
        expect((await tx.query(text, [9], { prepareAs: 'next_n' })).rows).toEqual([{ next: 10 }]);
      });
    } finally {
      await single.close();
    }
  });

  it('refuses a session setting that is not a plain name and value', () => {
    expect(() =>
      createPgSqlClient(process.env.DATABASE_URL!, 1, {
        sessionSettings: { work_mem: '8MB -c statement_timeout=1' },
      }),
    ).toThrow('invalid session setting "work_mem=8MB -c statement_timeout=1"');
  });
});
