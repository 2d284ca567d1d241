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
});
