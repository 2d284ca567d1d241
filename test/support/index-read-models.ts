import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import {
  applyEvents,
  decide,
  type DetectionState,
  type NotificationSettings,
} from '@vigil/notification-policy';
import {
  ElasticsearchReadModelWriter,
  IndexNames,
  createElasticsearchClient,
  ensureReadModels,
  type RecordedDetectionState,
} from '@vigil/search';

/**
 * Writes records straight into the read models of this test run's index prefix, as the indexer
 * would, and makes them searchable before returning.
 */
export async function indexReadModels(records: {
  events: readonly DetectionEventRecord[];
  investigations?: readonly InvestigationRecord[];
  /** Detection states as the processor would have recorded them (see detectionStateOf). */
  detectionStates?: readonly RecordedDetectionState[];
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
    if (records.detectionStates !== undefined) {
      await writer.indexDetectionStates(records.detectionStates, Date.now());
      await es.indices.refresh({ index: names.alias('detection-states') });
    }
  } finally {
    await es.close();
  }
}

/**
 * A detection's state as the processor would hold it after these events, decided on with
 * `notified` at `notifiedAt` first when given (so its channels have a last notification).
 */
export function detectionStateOf(
  events: readonly DetectionEventRecord[],
  notified?: { settings: NotificationSettings; at: number; count: number },
): DetectionState {
  const toEvent = (record: DetectionEventRecord) => ({
    id: record.id,
    detectionId: record.detection_id,
    detectionName: record.detection_name,
    personName: record.employee_name,
    personEmail: record.employee_email,
    description: record.description ?? '',
    timestamp: record.happened,
    riskScore: record.risk_score,
    source: record.source,
  });
  if (notified === undefined) return applyEvents(undefined, events.map(toEvent), 0).state;
  const first = applyEvents(undefined, events.slice(0, notified.count).map(toEvent), 0).state;
  const decided = decide(first, notified.settings, notified.at).state;
  return applyEvents(decided, events.slice(notified.count).map(toEvent), 0).state;
}
