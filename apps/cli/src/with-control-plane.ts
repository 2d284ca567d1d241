import { userInfo } from 'node:os';
import { loadConfig } from '@vigil/config';
import {
  loadSecretBox,
  openSqlClient,
  operatorActor,
  runMigrations,
  secretsKeySettings,
  type AuditContext,
  type LoadedSecretBox,
  type SqlClient,
} from '@vigil/control-plane';
import type { CliIo } from './cli-io';

/** What a command works with: the migrated database, the validated configuration, the key. */
export interface ControlPlane {
  readonly sql: SqlClient;
  readonly config: ReturnType<typeof loadCliConfig>;
  /** The audit context of this operator (the OS account running the CLI). */
  readonly operator: AuditContext;
  /** The secrets key, loaded on first use (only commands that touch secrets need it). */
  secrets(): LoadedSecretBox;
}

function loadCliConfig(env: CliIo['env']) {
  return loadConfig(['database', 'runtime', 'links', 'secrets'], env);
}

/** The OS account running the command, for the audit log; `operator` when it cannot be read. */
export function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'operator';
  }
}

/** Opens the database, brings the schema up to date, runs `work`, and always closes the pool. */
export async function withControlPlane<T>(
  io: CliIo,
  work: (controlPlane: ControlPlane) => Promise<T>,
): Promise<T> {
  const config = loadCliConfig(io.env);
  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: 2,
    dataDir: config.database.VIGIL_DATA_DIR,
    applicationName: 'vigil-cli',
  });
  let secrets: LoadedSecretBox | undefined;
  try {
    await runMigrations(sql);
    return await work({
      sql,
      config,
      operator: { actor: operatorActor(operatorName()) },
      secrets: () => (secrets ??= loadSecretBox(secretsKeySettings(config))),
    });
  } finally {
    await sql.close();
  }
}
