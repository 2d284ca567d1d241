import { isDeepStrictEqual } from 'node:util';
import { Client } from 'pg';
import type { RunningApp } from '@vigil/config';
import { detectionEventSchema, investigationSchema, valueSubjectOf } from '@vigil/contracts';
import { TopicCatalog } from '@vigil/kafka';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { startWeb } from '../../apps/web/src/start-web';
import { adminDatabaseUrl, databaseUrlFor } from '../support/test-environment';

/**
 * Every app started at the same moment on a prefix nobody used before (a fresh deployment, or
 * a scaled-out one brought up by an orchestrator in no particular order): each creates the
 * topics, registers the record schemas and migrates the database, racing the others, and each
 * must come up. Ten rounds, each on its own topic prefix, index prefix and database.
 */
const ROUNDS = 10;
const STARTS: Record<string, (env: NodeJS.ProcessEnv) => Promise<RunningApp>> = {
  ingest: startIngest,
  indexer: startIndexer,
  'stream-processor': startStreamProcessor,
  notifier: startNotifier,
  api: startApi,
  web: startWeb,
};
const REGISTRY = process.env.SCHEMA_REGISTRY_URL!;

jest.setTimeout(ROUNDS * 30_000);

async function registryGet<T>(path: string): Promise<T> {
  return (await (await fetch(`${REGISTRY}${path}`)).json()) as T;
}

describe('start-up in no order', () => {
  let admin: Client;
  const databases: string[] = [];

  beforeAll(async () => {
    admin = new Client({ connectionString: adminDatabaseUrl() });
    await admin.connect();
  });

  afterAll(async () => {
    for (const database of databases) {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }
    await admin.end();
  });

  it(`brings every app up when all start at once on a fresh prefix, ${ROUNDS} times`, async () => {
    const failures: string[] = [];
    const durations: number[] = [];
    let duplicates = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const database = `${new URL(process.env.DATABASE_URL!).pathname.slice(1)}_r${round}`;
      await admin.query(`CREATE DATABASE "${database}"`);
      databases.push(database);
      const topicPrefix = `${process.env.VIGIL_TOPIC_PREFIX}r${round}.`;
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrlFor(database),
        VIGIL_TOPIC_PREFIX: topicPrefix,
        VIGIL_INDEX_PREFIX: `${process.env.VIGIL_INDEX_PREFIX}r${round}-`,
        API_PORT: '0',
        INGEST_PORT: '0',
        WEB_PORT: '0',
        LOG_LEVEL: 'fatal',
      };
      const started = Date.now();
      const outcomes = await Promise.allSettled(Object.values(STARTS).map((start) => start(env)));
      durations.push(Date.now() - started);
      Object.keys(STARTS).forEach((app, i) => {
        const outcome = outcomes[i];
        if (outcome.status === 'rejected') {
          failures.push(`round ${round}, ${app}: ${String(outcome.reason)}`);
        }
      });
      // One schema per subject, whoever registered it, under BACKWARD compatibility. Apicurio
      // may list a schema registered by two instances in the same instant as two versions; both
      // carry the same schema id, so every record is written and read alike.
      const topics = new TopicCatalog(topicPrefix, 1);
      for (const [topic, schema] of [
        [topics.detectionEvents, detectionEventSchema],
        [topics.investigations, investigationSchema],
      ] as const) {
        const subject = encodeURIComponent(valueSubjectOf(topic));
        const numbers = await registryGet<number[]>(`/subjects/${subject}/versions`);
        const versions = await Promise.all(
          numbers.map((n) =>
            registryGet<{ id: number; schema: string }>(`/subjects/${subject}/versions/${n}`),
          ),
        );
        const ids = new Set(versions.map((v) => v.id));
        const foreign = versions.filter((v) => !isDeepStrictEqual(JSON.parse(v.schema), schema));
        const config = await registryGet<{ compatibilityLevel?: string }>(`/config/${subject}`);
        if (ids.size !== 1 || foreign.length > 0 || config.compatibilityLevel !== 'BACKWARD') {
          failures.push(
            `round ${round}, ${topic}: schema ids ${[...ids].join(', ')}, ${foreign.length} other schemas, ${JSON.stringify(config)}`,
          );
        }
        duplicates += versions.length - 1;
      }
      await Promise.all(
        outcomes.flatMap((outcome) =>
          outcome.status === 'fulfilled' ? [outcome.value.stop()] : [],
        ),
      );
    }
    console.log(
      `start-up rounds (ms, all six apps at once): ${durations.join(', ')}; ` +
        `subjects listing one schema twice: ${duplicates}`,
    );
    expect(failures).toEqual([]);
  });
});
