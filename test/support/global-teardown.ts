import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { reportOpenHandles } from './report-open-handles';
import { adminDatabaseUrl } from './test-environment';

/** Removes what the run created, unless VIGIL_KEEP_TEST_DATA is set for debugging. */
export default async function globalTeardown(): Promise<void> {
  await removeTestData();
  await reportOpenHandles();
}

async function removeTestData(): Promise<void> {
  const runId = process.env.VIGIL_TEST_RUN_ID;
  if (!runId || process.env.VIGIL_KEEP_TEST_DATA) return;

  const admin = new Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    // The run's database and every test file's own database.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [`vigil_test_${runId}`, `vigil_test_${runId}\\_%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }

  const es = new ElasticsearchClient({ node: process.env.ELASTICSEARCH_URL! });
  await es.indices
    .delete({ index: `test-${runId}-*`, expand_wildcards: 'all' })
    .catch(() => undefined);
  await es.indices.deleteIndexTemplate({ name: `test-${runId}-*` }).catch(() => undefined);
  await es.close();

  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin.connect();
  try {
    const topics = (await kafkaAdmin.listTopics()).filter((t) => t.startsWith(`test-${runId}.`));
    if (topics.length > 0) await kafkaAdmin.deleteTopics({ topics });
  } finally {
    await kafkaAdmin.disconnect();
  }
}
