import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlClient, runMigrations, type SqlClient } from '@vigil/control-plane';

/** The variables that switch a port from its embedded adapter to the real server. */
const SERVER_VARIABLES = [
  'KAFKA_BROKERS',
  'SCHEMA_REGISTRY_URL',
  'ELASTICSEARCH_URL',
  'DATABASE_URL',
] as const;
type ServerVariable = (typeof SERVER_VARIABLES)[number];

export type CapabilityEnvironment = [name: string, env: NodeJS.ProcessEnv];

function without(env: NodeJS.ProcessEnv, names: readonly ServerVariable[]): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of names) delete copy[name];
  return copy;
}

/**
 * The environments one capability suite runs in (DESIGN.md §8): the real servers of the test
 * file, every port embedded, and, with `mixed`, real Kafka with the embedded database holding
 * the control plane and the read models. The embedded cases share one fresh data folder per
 * test file (a first PGlite open of a folder costs seconds) and each case has topic and index
 * prefixes of its own, so cases never see each other's records or consumer groups. Call it at
 * the top of a test file: it removes the folder after the file's tests.
 */
export function capabilityEnvironments({ mixed = false } = {}): CapabilityEnvironment[] {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-capability-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const real = { ...process.env };
  const embeddedCase = (name: string, removed: readonly ServerVariable[]) => ({
    ...without(real, removed),
    VIGIL_DATA_DIR: dataDir,
    VIGIL_TOPIC_PREFIX: `${real.VIGIL_TOPIC_PREFIX ?? ''}${name}.`,
    VIGIL_INDEX_PREFIX: `${real.VIGIL_INDEX_PREFIX ?? ''}${name}-`,
  });
  const environments: CapabilityEnvironment[] = [
    ['real servers', real],
    ['embedded adapters', embeddedCase('embedded', SERVER_VARIABLES)],
  ];
  if (mixed) {
    environments.push([
      'real Kafka, embedded database and SQL read model',
      embeddedCase('mixed', ['ELASTICSEARCH_URL', 'DATABASE_URL']),
    ]);
  }
  return environments;
}

/**
 * The control plane's database of `env`, migrated, as the apps open it: in an embedded
 * environment it is the PGlite the apps of this process share, so close it after them.
 */
export async function openEnvironmentSql(env: NodeJS.ProcessEnv): Promise<SqlClient> {
  const sql = await openSqlClient({
    databaseUrl: env.DATABASE_URL,
    poolSize: 2,
    dataDir: env.VIGIL_DATA_DIR ?? '',
  });
  await runMigrations(sql);
  return sql;
}
