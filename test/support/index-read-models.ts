import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import {
  ElasticsearchReadModelWriter,
  IndexNames,
  createElasticsearchClient,
  ensureReadModels,
} from '@vigil/search';

/**
 * Writes records straight into the read models of this test run's index prefix, as the indexer
 * would, and makes them searchable before returning.
 */
export async function indexReadModels(records: {
  events: readonly DetectionEventRecord[];
  investigations?: readonly InvestigationRecord[];
}): Promise<void> {
  const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
  try {
    const names = new IndexNames(process.env.VIGIL_INDEX_PREFIX!);
    await ensureReadModels(es, names);
    const writer = new ElasticsearchReadModelWriter(es, names);
    await writer.indexEvents(records.events, Date.now());
    await es.indices.refresh({ index: names.alias('events') });
    if (records.investigations !== undefined) {
      await writer.indexInvestigations(records.investigations);
      await es.indices.refresh({ index: names.alias('investigations') });
    }
  } finally {
    await es.close();
  }
}
