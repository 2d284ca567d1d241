import type { ReadinessCheck } from '@vigil/ops';
import type { SqlClient } from './sql-client';

/** /readyz's check of the control plane's database: a `SELECT 1` answers. */
export function databaseReadiness(sql: SqlClient): ReadinessCheck {
  return {
    dependency: 'postgresql',
    check: async () => {
      await sql.query('SELECT 1');
    },
  };
}
