import type { Client } from '@elastic/elasticsearch';
import type { RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  createPgSqlClient,
  type ApiTokenService,
  type SqlClient,
} from '@vigil/control-plane';
import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import { ElasticsearchReadModelWriter, IndexNames, createElasticsearchClient } from '@vigil/search';
import { startApi } from '../../apps/api/src/start-api';

/**
 * The query API started on the real servers with an index prefix of its own, plus what a test
 * needs around it: a writer that puts documents straight into the read models, and tokens.
 */
export interface QueryApiHarness {
  url: string;
  es: Client;
  sql: SqlClient;
  tokens: ApiTokenService;
  names: IndexNames;
  /** Indexes the records and makes them searchable before returning. */
  index(events: readonly DetectionEventRecord[]): Promise<void>;
  indexInvestigations(reports: readonly InvestigationRecord[]): Promise<void>;
  token(permissions: Record<string, 'read' | 'write'>, name?: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startQueryApiHarness(
  name: string,
  env: Record<string, string> = {},
): Promise<QueryApiHarness> {
  const prefix = `${process.env.VIGIL_INDEX_PREFIX}${name}-`;
  const app: RunningApp = await startApi({
    ...process.env,
    API_PORT: '0',
    VIGIL_INDEX_PREFIX: prefix,
    ...env,
  });
  const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
  const names = new IndexNames(prefix);
  const writer = new ElasticsearchReadModelWriter(es, names);
  const sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
  const tokens = createApiTokenService(sql);
  const refresh = async (model: 'events' | 'investigations') => {
    await es.indices.refresh({ index: names.alias(model) });
  };
  return {
    url: app.url!,
    es,
    sql,
    tokens,
    names,
    async index(events) {
      for (let i = 0; i < events.length; i += 5_000) {
        const rejected = await writer.indexEvents(events.slice(i, i + 5_000), Date.now());
        if (rejected.length > 0) throw new Error(`rejected: ${rejected[0].reason}`);
      }
      await refresh('events');
    },
    async indexInvestigations(reports) {
      const rejected = await writer.indexInvestigations(reports);
      if (rejected.length > 0) throw new Error(`rejected: ${rejected[0].reason}`);
      await refresh('investigations');
    },
    async token(permissions, tokenName = 'test script') {
      return (await tokens.createToken({ name: tokenName, permissions })).value;
    },
    async stop() {
      await app.stop();
      await tokens.drain();
      await es.close();
      await sql.close();
    },
  };
}
