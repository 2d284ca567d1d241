import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type PrivateServer = 'kafka' | 'elasticsearch' | 'postgres';

/** Ports and folders of the private instance: never those of the shared servers. */
const PRIVATE_SERVERS = {
  VIGIL_RUN_DIR: process.env.VIGIL_CHAOS_RUN_DIR ?? '/var/lib/vigil-chaos',
  VIGIL_KAFKA_PORT: '19092',
  VIGIL_KAFKA_CONTROLLER_PORT: '19093',
  VIGIL_ES_PORT: '19200',
  VIGIL_ES_TRANSPORT_PORT: '19300-19399',
  VIGIL_PG_PORT: '15432',
  VIGIL_PG_OWN_CLUSTER: '1',
  VIGIL_KAFKA_HEAP: '-Xms128m -Xmx256m',
  VIGIL_ES_HEAP: '-Xms512m -Xmx512m',
};

/**
 * Kafka, Elasticsearch and PostgreSQL of the test's own, started through deploy/local/servers.sh
 * on other ports with their own data, so a fault test can stop and start them while others use
 * the shared servers. Servers already running are reused and left running; those this instance
 * started are stopped by `release()`.
 */
export class PrivateServers {
  readonly kafkaBrokers = `127.0.0.1:${PRIVATE_SERVERS.VIGIL_KAFKA_PORT}`;
  readonly elasticsearchUrl = `http://127.0.0.1:${PRIVATE_SERVERS.VIGIL_ES_PORT}`;
  readonly postgresAdminUrl = `postgres://postgres@127.0.0.1:${PRIVATE_SERVERS.VIGIL_PG_PORT}/postgres`;
  private readonly bookkeeping = mkdtempSync(join(tmpdir(), 'vigil-private-servers-'));
  private readonly startedFile = join(this.bookkeeping, 'started');

  databaseUrl(database: string): string {
    const url = new URL(this.postgresAdminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  }

  /** Starts the servers (reusing running ones) and waits until they are healthy. */
  async start(...names: PrivateServer[]): Promise<void> {
    await this.script(['start', ...names], { VIGIL_STARTED_FILE: this.startedFile });
  }

  /** A fault: stops the servers. */
  async stop(...names: PrivateServer[]): Promise<void> {
    await this.script(['stop', ...names]);
  }

  /** Ends a fault: starts the servers again and waits until they are healthy. */
  async restart(...names: PrivateServer[]): Promise<void> {
    await this.script(['start', ...names]);
  }

  /** Stops what `start` launched for the first time, leaving reused servers running. */
  async release(): Promise<void> {
    await this.script(['stop', 'kafka', 'elasticsearch', 'postgres'], {
      VIGIL_STARTED_FILE: this.startedFile,
      VIGIL_STOP_ONLY_STARTED: '1',
    });
    rmSync(this.bookkeeping, { recursive: true, force: true });
  }

  private async script(args: string[], extra: Record<string, string> = {}): Promise<void> {
    // The bookkeeping of an enclosing `npm test` is left out: it concerns the shared servers.
    const env: NodeJS.ProcessEnv = { ...process.env, ...PRIVATE_SERVERS };
    delete env.VIGIL_STARTED_FILE;
    delete env.VIGIL_STOP_ONLY_STARTED;
    Object.assign(env, extra);
    await run('bash', ['deploy/local/servers.sh', ...args], {
      cwd: join(__dirname, '../../..'),
      env,
      timeout: 300_000,
    });
  }
}
