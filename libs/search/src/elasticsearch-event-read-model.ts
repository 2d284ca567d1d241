import type { Client } from '@elastic/elasticsearch';
import { compileToElasticsearch } from '@vigil/query-language';
import { isElasticsearchUnavailable } from './create-elasticsearch-client';
import {
  MAX_DETECTION_LIST_OFFSET,
  decodeDetectionCursor,
  encodeDetectionCursor,
} from './detection-cursor';
import {
  fromDetectionStateDocument,
  type DetectionStateDocument,
  type RecordedDetectionState,
} from './detection-state-documents';
import type { ElasticsearchSearcher } from './elasticsearch-searcher';
import { toEventView, type EventDocument } from './event-documents';
import type { IndexNames } from './index-names';
import {
  type AffectedUserPage,
  type AffectedUserSearch,
  type DetectionListPage,
  type DetectionListSearch,
  type DetectionSummary,
  type EventPage,
  type EventReadModel,
  type EventSearch,
  type InvestigationReport,
  SOURCES_LISTED,
} from './event-read-model';
import { ReadModelUnavailableError } from './read-model-unavailable-error';

const SORT = [{ happened: { order: 'desc' } }, { id: { order: 'asc' } }] as const;
const USER_COUNT_PAGE = 10_000;

export class ElasticsearchEventReadModel implements EventReadModel {
  constructor(
    private readonly client: Client,
    private readonly names: IndexNames,
    /** The events search, the endpoint scripts call in loops, goes over this lean transport. */
    private readonly searcher: ElasticsearchSearcher,
  ) {}

  async searchEvents(search: EventSearch): Promise<EventPage> {
    const filter: object[] = [compileToElasticsearch(search.query)];
    if (search.detectionId !== undefined) {
      filter.push({ term: { detection_id: search.detectionId } });
    }
    const response = await this.guard(() =>
      this.searcher.search<EventDocument>(this.names.alias('events'), {
        query: { bool: { filter } },
        sort: SORT,
        size: search.limit + 1,
        search_after: search.after,
        track_total_hits: false,
      }),
    );
    const hits = response.hits.hits;
    const page = hits.slice(0, search.limit);
    const last = page[page.length - 1];
    const more = hits.length > search.limit && last?.sort !== undefined;
    return {
      items: page.map((hit) => toEventView(hit._source!)),
      next: more ? [Number(last.sort![0]), String(last.sort![1])] : null,
    };
  }

  async listSources(): Promise<string[]> {
    const response = await this.guard(() =>
      this.client.search({
        index: this.names.alias('events'),
        size: 0,
        aggs: {
          sources: { terms: { field: 'source', size: SOURCES_LISTED, order: { _key: 'asc' } } },
        },
      }),
    );
    const sources = response.aggregations?.sources as { buckets: { key: string }[] } | undefined;
    return (sources?.buckets ?? []).map((bucket) => String(bucket.key));
  }

  async getDetection(detectionId: string): Promise<DetectionSummary | null> {
    const response = await this.guard(() =>
      this.client.search<EventDocument>({
        index: this.names.alias('events'),
        query: { term: { detection_id: detectionId } },
        size: 1,
        sort: SORT as never,
        _source: ['detection_name'],
        track_total_hits: true,
        aggs: {
          first_seen: { min: { field: 'happened' } },
          last_seen: { max: { field: 'happened' } },
          max_risk: { max: { field: 'risk_score' } },
        },
      }),
    );
    const total = response.hits.total;
    const count = typeof total === 'number' ? total : (total?.value ?? 0);
    const latest = response.hits.hits[0]?._source;
    if (count === 0 || !latest) return null;
    const aggs = response.aggregations as Record<string, { value: number | null }>;
    return {
      id: detectionId,
      name: latest.detection_name,
      event_count: count,
      user_count: await this.countUsers(detectionId),
      first_seen: new Date(aggs.first_seen.value ?? 0).toISOString(),
      last_seen: new Date(aggs.last_seen.value ?? 0).toISOString(),
      max_risk_score: aggs.max_risk.value ?? 0,
    };
  }

  async detectionExists(detectionId: string): Promise<boolean> {
    const response = await this.guard(() =>
      this.client.search({
        index: this.names.alias('events'),
        query: { term: { detection_id: detectionId } },
        size: 0,
        terminate_after: 1,
        track_total_hits: true,
      }),
    );
    const total = response.hits.total;
    return (typeof total === 'number' ? total : (total?.value ?? 0)) > 0;
  }

  /**
   * Two searches: the first orders detection ids by their newest event (a terms aggregation
   * ordered by `max` descending is exact across shards), the second counts the page's
   * detections with a filter on their ids, so every shard reports every one of them and the
   * counts are exact too.
   */
  async listDetections(search: DetectionListSearch): Promise<DetectionListPage> {
    const offset = search.cursor === undefined ? 0 : decodeDetectionCursor(search.cursor);
    if (offset === null) throw new RangeError('The detection cursor is not one this list issued');
    const ordered = await this.guard(() =>
      this.client.search({
        index: this.names.alias('events'),
        size: 0,
        filter_path: ['aggregations.detections.buckets.key'],
        aggs: {
          detections: {
            terms: {
              field: 'detection_id',
              size: offset + search.limit + 1,
              order: [{ last_seen: 'desc' }, { _key: 'asc' }],
            },
            aggs: { last_seen: { max: { field: 'happened' } } },
          },
        },
      }),
    );
    const keys = (
      (ordered.aggregations as { detections?: { buckets?: { key: string }[] } } | undefined)
        ?.detections?.buckets ?? []
    )
      .slice(offset)
      .map((b) => b.key);
    const ids = keys.slice(0, search.limit);
    const nextOffset = offset + ids.length;
    const nextCursor =
      keys.length > search.limit && nextOffset <= MAX_DETECTION_LIST_OFFSET
        ? encodeDetectionCursor(nextOffset)
        : null;
    if (ids.length === 0) return { items: [], nextCursor: null };
    const figures = await this.guard(() =>
      this.client.search({
        index: this.names.alias('events'),
        size: 0,
        query: { terms: { detection_id: ids } },
        aggs: {
          detections: {
            terms: { field: 'detection_id', size: ids.length },
            aggs: {
              last_seen: { max: { field: 'happened' } },
              max_risk: { max: { field: 'risk_score' } },
              latest: {
                top_hits: { size: 1, sort: SORT as never, _source: ['detection_name'] },
              },
            },
          },
        },
      }),
    );
    type Bucket = {
      key: string;
      doc_count: number;
      last_seen: { value: number };
      max_risk: { value: number };
      latest: { hits: { hits: { _source: { detection_name: string } }[] } };
    };
    const byId = new Map(
      (figures.aggregations as { detections: { buckets: Bucket[] } }).detections.buckets.map(
        (b) => [b.key, b],
      ),
    );
    const items = ids.flatMap((id) => {
      const b = byId.get(id);
      if (b === undefined) return [];
      return [
        {
          id,
          name: b.latest.hits.hits[0]?._source.detection_name ?? '',
          event_count: b.doc_count,
          last_seen: new Date(b.last_seen.value).toISOString(),
          max_risk_score: b.max_risk.value,
        },
      ];
    });
    return { items, nextCursor };
  }

  /**
   * Distinct users, counted exactly: `cardinality` is an estimate, so the emails are walked
   * with a composite aggregation, only the bucket count coming back.
   */
  private async countUsers(detectionId: string): Promise<number> {
    let users = 0;
    let after: Record<string, string> | undefined;
    for (;;) {
      const response = await this.guard(() =>
        this.client.search({
          index: this.names.alias('events'),
          query: { term: { detection_id: detectionId } },
          size: 0,
          filter_path: ['aggregations.users.after_key', 'aggregations.users.buckets.doc_count'],
          aggs: {
            users: {
              composite: {
                size: USER_COUNT_PAGE,
                sources: [{ email: { terms: { field: 'employee_email' } } }],
                after,
              },
            },
          },
        }),
      );
      const agg = (
        response.aggregations as
          { users?: { after_key?: Record<string, string>; buckets?: unknown[] } } | undefined
      )?.users;
      const buckets = agg?.buckets?.length ?? 0;
      users += buckets;
      if (buckets < USER_COUNT_PAGE || !agg?.after_key) return users;
      after = agg.after_key;
    }
  }

  async listAffectedUsers(search: AffectedUserSearch): Promise<AffectedUserPage> {
    const response = await this.guard(() =>
      this.client.search({
        index: this.names.alias('events'),
        query: { term: { detection_id: search.detectionId } },
        size: 0,
        aggs: {
          users: {
            composite: {
              // One more than asked tells whether another page exists.
              size: search.limit + 1,
              sources: [{ email: { terms: { field: 'employee_email' } } }],
              after: search.after === undefined ? undefined : { email: search.after },
            },
            aggs: {
              max_risk: { max: { field: 'risk_score' } },
              last_seen: { max: { field: 'happened' } },
              latest: {
                top_hits: {
                  size: 1,
                  sort: SORT as never,
                  _source: { includes: ['employee_name'] },
                },
              },
            },
          },
        },
      }),
    );
    type Bucket = {
      key: { email: string };
      doc_count: number;
      max_risk: { value: number };
      last_seen: { value: number };
      latest: { hits: { hits: { _source: { employee_name: string } }[] } };
    };
    const buckets = (response.aggregations as { users: { buckets: Bucket[] } }).users.buckets;
    const page = buckets.slice(0, search.limit);
    return {
      items: page.map((b) => ({
        employee_email: b.key.email,
        employee_name: b.latest.hits.hits[0]?._source.employee_name ?? '',
        event_count: b.doc_count,
        max_risk_score: b.max_risk.value,
        last_seen: new Date(b.last_seen.value).toISOString(),
      })),
      next: buckets.length > search.limit ? page[page.length - 1].key.email : null,
    };
  }

  async getInvestigation(investigationId: string): Promise<InvestigationReport | null> {
    const response = await this.guard(() =>
      this.client.search<InvestigationReport>({
        index: this.names.alias('investigations'),
        query: { term: { id: investigationId } },
        size: 1,
      }),
    );
    const source = response.hits.hits[0]?._source;
    return source ? { ...source, updated_at: new Date(source.updated_at).toISOString() } : null;
  }

  async getDetectionState(detectionId: string): Promise<RecordedDetectionState | null> {
    const response = await this.guard(() =>
      this.client.search<DetectionStateDocument>({
        index: this.names.alias('detection-states'),
        query: { ids: { values: [detectionId] } },
        size: 1,
      }),
    );
    const source = response.hits.hits[0]?._source;
    return source ? fromDetectionStateDocument(source) : null;
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isElasticsearchUnavailable(error)) {
        throw new ReadModelUnavailableError('Elasticsearch', error);
      }
      throw error;
    }
  }
}
