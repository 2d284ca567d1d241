import { createPgSqlClient, type EmbeddedSqlClient, type SqlClient } from '@vigil/control-plane';
import { rateLimitStoreFor } from './rate-limit-store';

const unused = () => Promise.reject(new Error('not used'));
const sqlClient: SqlClient = {
  query: unused,
  exec: unused,
  transaction: unused,
  close: () => Promise.resolve(),
};

describe('rateLimitStoreFor', () => {
  it('counts in PostgreSQL, on the client’s own pool, when the control plane is a server', async () => {
    // A pool connects on first use only: nothing is sent here.
    const sql = createPgSqlClient('postgres://postgres@127.0.0.1:5432/unused', 1);
    try {
      expect(rateLimitStoreFor(sql)).toEqual({ kind: 'postgres', pool: sql.pool });
    } finally {
      await sql.close();
    }
  });

  it('counts in memory in the embedded mode, where one process runs every app', () => {
    const embedded: EmbeddedSqlClient = { ...sqlClient, dataDir: '/data', listen: unused };
    expect(rateLimitStoreFor(embedded)).toEqual({ kind: 'memory' });
  });

  it('refuses any other client rather than count per process by mistake', () => {
    expect(() => rateLimitStoreFor(sqlClient)).toThrow(/PostgreSQL or the embedded/);
  });
});
