import type { SqlClient } from '@vigil/control-plane';
import type { ReadinessCheck } from '@vigil/ops';
import { createElasticsearchClient } from './create-elasticsearch-client';
import { ElasticsearchEventReadModel } from './elasticsearch-event-read-model';
import { ElasticsearchSearcher } from './elasticsearch-searcher';
import { ElasticsearchReadModelWriter } from './elasticsearch-read-model-writer';
import { ensureReadModels } from './ensure-read-models';
import type { EventReadModel } from './event-read-model';
import { IndexNames } from './index-names';
import type { ReadModelWriter } from './read-model-writer';
import { ensureSqlReadModels } from './sql-read-model-migrations';
import { SqlEventReadModel } from './sql-event-read-model';
import { SqlReadModelWriter } from './sql-read-model-writer';

export interface OpenReadModelsOptions {
  /** Elasticsearch; without one the read models live in `sql` (DESIGN.md §8). */
  readonly elasticsearchUrl?: string;
  /** VIGIL_INDEX_PREFIX (Elasticsearch only). */
  readonly indexPrefix: string;
  /** The control plane's database (embedded or PostgreSQL); the caller closes it. */
  readonly sql: SqlClient;
  /** Replicas of new indices (Elasticsearch only). */
  readonly replicas?: number;
}

export interface Opened<T> {
  readonly backend: 'elasticsearch' | 'sql';
  readonly value: T;
  /** What /readyz checks of the backend: Elasticsearch answers (none for `sql`: its owner checks it). */
  readonly readinessChecks: ReadinessCheck[];
  /** Closes what the factory opened (the Elasticsearch client); never `sql`. */
  close(): Promise<void>;
}

/** What a factory built on the Elasticsearch client, and what else it opened and must close. */
interface ElasticsearchBacked<T> {
  readonly value: T;
  readonly close?: () => Promise<void>;
}

async function open<T>(
  options: OpenReadModelsOptions,
  onElasticsearch: (
    es: ReturnType<typeof createElasticsearchClient>,
    names: IndexNames,
    url: string,
  ) => ElasticsearchBacked<T>,
  onSql: (sql: SqlClient) => T,
): Promise<Opened<T>> {
  if (options.elasticsearchUrl !== undefined && options.elasticsearchUrl !== '') {
    const url = options.elasticsearchUrl;
    const es = createElasticsearchClient(url);
    const names = new IndexNames(options.indexPrefix);
    try {
      await ensureReadModels(es, names, options.replicas);
    } catch (error) {
      await es.close();
      throw error;
    }
    const backed = onElasticsearch(es, names, url);
    return {
      backend: 'elasticsearch',
      value: backed.value,
      readinessChecks: [elasticsearchReadiness(es)],
      close: async () => {
        await backed.close?.();
        await es.close();
      },
    };
  }
  await ensureSqlReadModels(options.sql);
  return {
    backend: 'sql',
    value: onSql(options.sql),
    readinessChecks: [],
    close: async () => undefined,
  };
}

/**
 * Elasticsearch answers its cluster health, without the client's retries (the health's colour is
 * not judged: a red index of someone else's does not stop ours from serving).
 */
function elasticsearchReadiness(es: ReturnType<typeof createElasticsearchClient>): ReadinessCheck {
  return {
    dependency: 'elasticsearch',
    check: async (signal) => {
      await es.cluster.health({}, { signal, maxRetries: 0, requestTimeout: 5_000 });
    },
  };
}

/** The query API's read side: Elasticsearch when ELASTICSEARCH_URL is set, SQL otherwise. */
export function openEventReadModel(
  options: OpenReadModelsOptions,
): Promise<Opened<EventReadModel>> {
  return open<EventReadModel>(
    options,
    (es, names, url) => {
      const searcher = new ElasticsearchSearcher(url);
      return {
        value: new ElasticsearchEventReadModel(es, names, searcher),
        close: () => searcher.close(),
      };
    },
    (sql) => new SqlEventReadModel(sql),
  );
}

/** The writer for ReadModelProjector, on the same backend as openEventReadModel picks. */
export function openReadModelWriter(
  options: OpenReadModelsOptions,
): Promise<Opened<ReadModelWriter>> {
  return open<ReadModelWriter>(
    options,
    (es, names) => ({ value: new ElasticsearchReadModelWriter(es, names) }),
    (sql) => new SqlReadModelWriter(sql),
  );
}
