import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type PrivateServer = 'kafka' | 'registry' | 'elasticsearch' | 'postgres';

/** Where a private instance runs: ports and a folder that are never those of the shared servers. */
export interface PrivateServerPlaces {
  runDir: string;
  kafkaPort: number;
  kafkaControllerPort: number;
  registryPort: number;
  elasticsearchPort: number;
  /** A range: Elasticsearch takes the first free port in it. */
  elasticsearchTransportPorts: string;
  postgresPort: number;
}

const DEFAULT_PLACES: PrivateServerPlaces = {
  runDir: process.env.VIGIL_CHAOS_RUN_DIR ?? '/var/lib/vigil-chaos',
  kafkaPort: 19092,
  kafkaControllerPort: 19093,
  registryPort: 18081,
  elasticsearchPort: 19200,
  elasticsearchTransportPorts: '19300-19399',
  postgresPort: 15432,
};

/**
 * Kafka, the schema registry, Elasticsearch and PostgreSQL of the test's own, started through
 * deploy/local/servers.sh on other ports with their own data, so a fault test can stop, pause and
 * start them while others use the shared servers. Servers already running are reused and left
 * running; those this instance started are stopped by `release()`. Tests that run at the same
 * time give each instance places of its own.
 */
export class PrivateServers {
  readonly kafkaBrokers: string;
  readonly schemaRegistryUrl: string;
  readonly elasticsearchUrl: string;
  readonly postgresAdminUrl: string;
  private readonly places: PrivateServerPlaces;
  private readonly bookkeeping = mkdtempSync(join(tmpdir(), 'vigil-private-servers-'));
  private readonly startedFile = join(this.bookkeeping, 'started');

  constructor(places: Partial<PrivateServerPlaces> = {}) {
    this.places = { ...DEFAULT_PLACES, ...places };
    this.kafkaBrokers = `127.0.0.1:${this.places.kafkaPort}`;
    this.schemaRegistryUrl = `http://127.0.0.1:${this.places.registryPort}/apis/ccompat/v7`;
    this.elasticsearchUrl = `http://127.0.0.1:${this.places.elasticsearchPort}`;
    this.postgresAdminUrl = `postgres://postgres@127.0.0.1:${this.places.postgresPort}/postgres`;
  }

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

  /** A hang: the server's processes stop being scheduled (SIGSTOP) but keep their sockets. */
  pause(name: PrivateServer): void {
    for (const pid of this.processesOf(name)) process.kill(pid, 'SIGSTOP');
  }

  /** Ends a hang (SIGCONT). */
  resume(name: PrivateServer): void {
    for (const pid of this.processesOf(name)) process.kill(pid, 'SIGCONT');
  }

  /** Stops what `start` launched for the first time, leaving reused servers running. */
  async release(): Promise<void> {
    await this.script(['stop', 'kafka', 'registry', 'elasticsearch', 'postgres'], {
      VIGIL_STARTED_FILE: this.startedFile,
      VIGIL_STOP_ONLY_STARTED: '1',
    });
    rmSync(this.bookkeeping, { recursive: true, force: true });
  }

  /**
   * The processes of a private server: the process group servers.sh started a Java server in
   * (the launcher and its JVM), or PostgreSQL's postmaster and its children.
   */
  private processesOf(name: PrivateServer): number[] {
    const { runDir } = this.places;
    if (name === 'postgres') {
      const postmaster = Number(
        readFileSync(join(runDir, 'postgres/data/postmaster.pid'), 'utf8').split('\n')[0],
      );
      const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
      return [postmaster, ...children];
    }
    const leader = Number(readFileSync(join(runDir, 'pids', `${name}.pid`), 'utf8').trim());
    return [-leader];
  }

  private async script(args: string[], extra: Record<string, string> = {}): Promise<void> {
    const { places } = this;
    // The bookkeeping of an enclosing `npm test` is left out: it concerns the shared servers.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VIGIL_RUN_DIR: places.runDir,
      VIGIL_KAFKA_PORT: String(places.kafkaPort),
      VIGIL_KAFKA_CONTROLLER_PORT: String(places.kafkaControllerPort),
      VIGIL_REGISTRY_PORT: String(places.registryPort),
      VIGIL_ES_PORT: String(places.elasticsearchPort),
      VIGIL_ES_TRANSPORT_PORT: places.elasticsearchTransportPorts,
      VIGIL_PG_PORT: String(places.postgresPort),
      VIGIL_PG_OWN_CLUSTER: '1',
      VIGIL_KAFKA_HEAP: '-Xms128m -Xmx256m',
      VIGIL_REGISTRY_HEAP: '-Xmx256m',
      VIGIL_ES_HEAP: '-Xms512m -Xmx512m',
    };
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
