import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RunningApp } from '@vigil/config';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { startWeb } from '../../apps/web/src/start-web';
import { eventually } from '../support/http-client';
import { SmtpSink } from '../support/smtp-sink';
import { PrivateServers, type PrivateServer } from './support/private-servers';

/**
 * The ops probes of every app while its servers hang (SIGSTOP) and after they stop, on servers of
 * the test's own (other ports than the shared servers and than server-faults' private ones):
 * /metrics and /livez answer within a second whatever the servers do, and /readyz answers within
 * a second too, 503 naming each dependency that does not answer, 200 again once it does.
 */
jest.setTimeout(900_000);

const PROBE_BOUND_MS = 1_000;
const servers = new PrivateServers({
  runDir: process.env.VIGIL_OPS_PROBES_RUN_DIR ?? '/var/lib/vigil-ops-probes',
  kafkaPort: 29092,
  kafkaControllerPort: 29093,
  registryPort: 28081,
  elasticsearchPort: 29200,
  elasticsearchTransportPorts: '29300-29399',
  postgresPort: 25432,
});
const run = randomUUID().slice(0, 8);

type AppName = 'api' | 'ingest' | 'web' | 'stream-processor' | 'indexer' | 'notifier';

/** The readiness dependency each server is, and the apps that need it. */
const DEPENDENTS: Record<PrivateServer | 'smtp', { dependency: string; apps: AppName[] }> = {
  postgres: {
    dependency: 'postgresql',
    apps: ['api', 'ingest', 'web', 'stream-processor', 'notifier'],
  },
  kafka: { dependency: 'kafka', apps: ['ingest', 'stream-processor', 'indexer', 'notifier'] },
  registry: { dependency: 'schema-registry', apps: ['ingest', 'stream-processor', 'indexer'] },
  elasticsearch: { dependency: 'elasticsearch', apps: ['api', 'web', 'indexer'] },
  smtp: { dependency: 'smtp', apps: ['notifier'] },
};

interface Probe {
  status: number;
  ms: number;
  body: { status?: string; failing?: { dependency: string; reason: string }[] };
}

async function probe(url: string): Promise<Probe> {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: Probe['body'] = {};
  try {
    body = JSON.parse(text) as Probe['body'];
  } catch {
    // /metrics is text
  }
  return { status: response.status, ms, body };
}

const apps = new Map<AppName, RunningApp>();
let smtp: SmtpSink;
let smtpStopped = false;

/** Every app's /metrics and /livez: 200 within the bound. */
async function expectMetricsAndLivenessAnswer(): Promise<void> {
  for (const [name, app] of apps) {
    for (const path of ['/metrics', '/livez']) {
      const answer = await probe(`${app.opsUrl}${path}`);
      expect({ app: name, path, status: answer.status }).toEqual({ app: name, path, status: 200 });
      expect(answer.ms).toBeLessThan(PROBE_BOUND_MS);
    }
  }
}

/** Every app's /readyz within the bound: 503 naming `failing` where it needs them, else 200. */
async function expectReadiness(failing: (keyof typeof DEPENDENTS)[]): Promise<void> {
  for (const [name, app] of apps) {
    const expected = failing
      .filter((server) => DEPENDENTS[server].apps.includes(name))
      .map((server) => DEPENDENTS[server].dependency)
      .sort();
    const answer = await probe(`${app.opsUrl}/readyz`);
    expect(answer.ms).toBeLessThan(PROBE_BOUND_MS);
    const named = (answer.body.failing ?? []).map((f) => f.dependency).sort();
    expect({ app: name, status: answer.status, failing: named }).toEqual({
      app: name,
      status: expected.length > 0 ? 503 : 200,
      failing: expected,
    });
    if (expected.length > 0) expect(answer.body.status).toBe('unavailable');
  }
}

/** Waits until readiness says exactly that (answers are cached for a few seconds). */
async function eventuallyReadiness(failing: (keyof typeof DEPENDENTS)[]): Promise<void> {
  await eventually(
    async () => {
      await expectReadiness(failing);
      return true;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

beforeAll(async () => {
  await servers.start('kafka', 'registry', 'elasticsearch', 'postgres');
  const database = `vigil_ops_probes_${run}`;
  const admin = new Client({ connectionString: servers.postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  smtp = await SmtpSink.start();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'fatal',
    KAFKA_BROKERS: servers.kafkaBrokers,
    SCHEMA_REGISTRY_URL: servers.schemaRegistryUrl,
    ELASTICSEARCH_URL: servers.elasticsearchUrl,
    DATABASE_URL: servers.databaseUrl(database),
    OPS_PORT: '0',
    API_PORT: '0',
    INGEST_PORT: '0',
    WEB_PORT: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
  };
  apps.set('indexer', await startIndexer(env));
  apps.set('stream-processor', await startStreamProcessor(env));
  apps.set('notifier', await startNotifier(env));
  apps.set('ingest', await startIngest(env));
  apps.set('api', await startApi(env));
  apps.set('web', await startWeb(env));
});

afterAll(async () => {
  // The servers the last test stopped come back first, so every app stops as it would in
  // production. An app left to stop against servers that are gone keeps retrying past this
  // file: its late work then runs after jest tore the file down (which fails the run's exit
  // code) or keeps jest from exiting at all.
  await servers.restart('postgres', 'kafka', 'registry', 'elasticsearch').catch(() => undefined);
  for (const app of [...apps.values()].reverse()) {
    await Promise.race([app.stop(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  if (!smtpStopped) await smtp?.stop();
  await servers.release();
});

it('is ready while every server answers', async () => {
  await eventuallyReadiness([]);
  await expectMetricsAndLivenessAnswer();
});

it.each<PrivateServer>(['postgres', 'kafka', 'elasticsearch', 'registry'])(
  'answers every probe within a second while %s hangs, and is ready again once it answers',
  async (server) => {
    servers.pause(server);
    try {
      await eventuallyReadiness([server]);
      await expectMetricsAndLivenessAnswer();
      const answer = await probe(`${apps.get(DEPENDENTS[server].apps[0])!.opsUrl}/readyz`);
      expect(answer.body.failing).toEqual([
        { dependency: DEPENDENTS[server].dependency, reason: 'timed out after 800 ms' },
      ]);
    } finally {
      servers.resume(server);
    }
    await eventuallyReadiness([]);
  },
);

it('names each stopped server in /readyz while /metrics and /livez still answer', async () => {
  const stopped: (keyof typeof DEPENDENTS)[] = [];
  for (const server of ['registry', 'elasticsearch', 'kafka', 'postgres'] as const) {
    await servers.stop(server);
    stopped.push(server);
    await eventuallyReadiness(stopped);
    await expectMetricsAndLivenessAnswer();
  }
  await smtp.stop();
  smtpStopped = true;
  stopped.push('smtp');
  await eventuallyReadiness(stopped);
  await expectMetricsAndLivenessAnswer();
});
