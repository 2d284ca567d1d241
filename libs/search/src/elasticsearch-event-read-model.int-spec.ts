import type { Client } from '@elastic/elasticsearch';
import type { DetectionEventRecord } from '@vigil/contracts';
import { createElasticsearchClient } from './create-elasticsearch-client';
import { ElasticsearchReadModelWriter } from './elasticsearch-read-model-writer';
import { ElasticsearchEventReadModel } from './elasticsearch-event-read-model';
import { ElasticsearchSearcher } from './elasticsearch-searcher';
import { ensureReadModels } from './ensure-read-models';
import { IndexNames } from './index-names';

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0);
let sequence = 0;

function anEvent(overrides: Partial<DetectionEventRecord>): DetectionEventRecord {
  sequence += 1;
  return {
    id: `evt-${sequence}`,
    detection_id: 'det-x',
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: 'ada@example.com',
    employee_name: 'Ada Lovelace',
    asset_name: 'laptop-17',
    happened: T0,
    risk_score: 5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: 'impossible travel on okta',
    ...overrides,
  };
}

describe('ElasticsearchEventReadModel.listDetections', () => {
  let es: Client;
  let searcher: ElasticsearchSearcher;
  let readModel: ElasticsearchEventReadModel;

  beforeAll(async () => {
    es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
    const names = new IndexNames(`${process.env.VIGIL_INDEX_PREFIX}list-`);
    await ensureReadModels(es, names);
    searcher = new ElasticsearchSearcher(process.env.ELASTICSEARCH_URL!);
    readModel = new ElasticsearchEventReadModel(es, names, searcher);
    const events = [
      // "det-old" has the most events but the oldest activity.
      ...Array.from({ length: 30 }, (_, i) =>
        anEvent({ detection_id: 'det-old', detection_name: 'Old', happened: T0 + i }),
      ),
      anEvent({ detection_id: 'det-mid', detection_name: 'Renamed later', happened: T0 + 500 }),
      anEvent({
        detection_id: 'det-mid',
        detection_name: 'Mid',
        happened: T0 + 1_000,
        risk_score: 9.25,
      }),
      anEvent({ detection_id: 'det-new', detection_name: 'New', happened: T0 + 2_000 }),
      // A tie on last activity is ordered by id.
      anEvent({ detection_id: 'det-tie-b', detection_name: 'Tie B', happened: T0 + 1_500 }),
      anEvent({ detection_id: 'det-tie-a', detection_name: 'Tie A', happened: T0 + 1_500 }),
    ];
    await new ElasticsearchReadModelWriter(es, names).indexEvents(events, Date.now());
    await es.indices.refresh({ index: names.alias('events') });
  });

  afterAll(async () => {
    await searcher?.close();
    await es?.close();
  });

  it('orders detections by last activity, newest first, with exact counts and the latest name', async () => {
    const page = await readModel.listDetections({ limit: 10 });
    expect(page.items.map((d) => d.id)).toEqual([
      'det-new',
      'det-tie-a',
      'det-tie-b',
      'det-mid',
      'det-old',
    ]);
    expect(page.items[3]).toEqual({
      id: 'det-mid',
      name: 'Mid',
      event_count: 2,
      last_seen: new Date(T0 + 1_000).toISOString(),
      max_risk_score: 9.25,
    });
    expect(page.items[4].event_count).toBe(30);
    expect(page.nextCursor).toBeNull();
  });

  it('pages with the cursor it hands out until the last page', async () => {
    const first = await readModel.listDetections({ limit: 2 });
    expect(first.items.map((d) => d.id)).toEqual(['det-new', 'det-tie-a']);
    const second = await readModel.listDetections({ limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((d) => d.id)).toEqual(['det-tie-b', 'det-mid']);
    const third = await readModel.listDetections({ limit: 2, cursor: second.nextCursor! });
    expect(third.items.map((d) => d.id)).toEqual(['det-old']);
    expect(third.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not issue', async () => {
    await expect(readModel.listDetections({ limit: 2, cursor: 'bogus' })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('the events index', () => {
  it('is stored in the order event queries return (newest first, then id)', async () => {
    const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
    try {
      const names = new IndexNames(`${process.env.VIGIL_INDEX_PREFIX}sorted-`);
      await ensureReadModels(es, names);
      const settings = await es.indices.getSettings({ index: names.alias('events') });
      const sort = Object.values(settings)[0].settings?.index?.sort;
      expect(sort).toEqual({ field: ['happened', 'id'], order: ['desc', 'asc'] });
    } finally {
      await es.close();
    }
  });
});
