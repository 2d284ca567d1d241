import { controlPlaneMigrations } from '../../migrations';
import { type SqlClient } from './sql-client';
import { MigrationError, runMigrations } from './run-migrations';

const unusedClient: SqlClient = {
  query: () => Promise.reject(new Error('must not be called')),
  exec: () => Promise.reject(new Error('must not be called')),
  transaction: () => Promise.reject(new Error('must not be called')),
  close: () => Promise.resolve(),
};

describe('runMigrations', () => {
  it('ships migrations with NNNN_name ids in strictly ascending order', () => {
    const ids = controlPlaneMigrations.map((m) => m.id);
    expect(ids[0]).toBe('0001_api_tokens');
    ids.forEach((id, i) => {
      expect(id).toMatch(/^\d{4}_[a-z0-9_]+$/);
      if (i > 0) expect(id > ids[i - 1]).toBe(true);
    });
  });

  it('refuses a list out of order or with a malformed id before touching the database', async () => {
    await expect(
      runMigrations(unusedClient, {
        migrations: [
          { id: '0002_b', sql: '' },
          { id: '0001_a', sql: '' },
        ],
      }),
    ).rejects.toBeInstanceOf(MigrationError);
    await expect(
      runMigrations(unusedClient, { migrations: [{ id: 'first', sql: '' }] }),
    ).rejects.toThrow(/not NNNN_name/);
  });
});
