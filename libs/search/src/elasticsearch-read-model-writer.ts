import type { Client } from '@elastic/elasticsearch';
import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import {
  lastStateOfEachDetection,
  toDetectionStateDocument,
  type RecordedDetectionState,
} from './detection-state-documents';
import { toEventDocument } from './event-documents';
import type { IndexNames } from './index-names';
import type { ReadModelWriter, RejectedDocument } from './read-model-writer';

export type { RejectedDocument } from './read-model-writer';

/**
 * Bulk-writes the read models. The event id is the document id, so a replayed record
 * overwrites itself and changes nothing. Documents Elasticsearch rejects for their content
 * come back to the caller (for the DLQ); any other failure throws so the batch is retried.
 */
export class ElasticsearchReadModelWriter implements ReadModelWriter {
  constructor(
    private readonly client: Client,
    private readonly names: IndexNames,
  ) {}

  async indexEvents(
    events: readonly DetectionEventRecord[],
    now: number,
  ): Promise<RejectedDocument<DetectionEventRecord>[]> {
    const index = this.names.alias('events');
    return this.bulk(
      events,
      (e) => e.id,
      (e) => toEventDocument(e, now),
      index,
    );
  }

  async indexInvestigations(
    reports: readonly InvestigationRecord[],
  ): Promise<RejectedDocument<InvestigationRecord>[]> {
    const index = this.names.alias('investigations');
    return this.bulk(
      reports,
      (r) => r.id,
      (r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }),
      index,
    );
  }

  /**
   * The recorded time is the document's external version: a replayed (older) state is refused
   * with a version conflict, which leaves the newer one in place and is no error.
   */
  async indexDetectionStates(
    states: readonly RecordedDetectionState[],
    now: number,
  ): Promise<RejectedDocument<RecordedDetectionState>[]> {
    const index = this.names.alias('detection-states');
    return this.bulk(
      lastStateOfEachDetection(states),
      (s) => s.snapshot.detectionId,
      (s) => toDetectionStateDocument(s, now),
      index,
      (s) => ({ version: s.recordedAt, version_type: 'external_gte' as const }),
    );
  }

  private async bulk<T>(
    records: readonly T[],
    idOf: (r: T) => string,
    toDoc: (r: T) => object,
    index: string,
    versionOf?: (r: T) => { version: number; version_type: 'external_gte' },
  ): Promise<RejectedDocument<T>[]> {
    if (records.length === 0) return [];
    const operations = records.flatMap((r) => [
      { index: { _index: index, _id: idOf(r), ...versionOf?.(r) } },
      toDoc(r),
    ]);
    const response = await this.client.bulk({ operations, refresh: false });
    if (!response.errors) return [];
    const rejected: RejectedDocument<T>[] = [];
    response.items.forEach((item, i) => {
      const result = item.index;
      if (!result?.error) return;
      const status = result.status;
      if (status === 409 && versionOf !== undefined) return;
      if (status === 429 || status >= 500) {
        throw new Error(`Elasticsearch could not index now (${status}): ${result.error.type}`);
      }
      rejected.push({
        record: records[i],
        reason: `${result.error.type}: ${result.error.reason ?? ''}`,
      });
    });
    return rejected;
  }
}
