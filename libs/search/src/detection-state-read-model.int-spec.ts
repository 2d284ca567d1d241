import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { createPgSqlClient, openPgliteSqlClient, type SqlClient } from '@vigil/control-plane';
import {
  applyEvents,
  decide,
  DEFAULT_NOTIFICATION_SETTINGS,
  type DetectionEvent,
  type DetectionState,
} from '@vigil/notification-policy';
import { createElasticsearchClient } from './create-elasticsearch-client';
import { ElasticsearchEventReadModel } from './elasticsearch-event-read-model';
import { ElasticsearchSearcher } from './elasticsearch-searcher';
import { ElasticsearchReadModelWriter } from './elasticsearch-read-model-writer';
import { ensureReadModels } from './ensure-read-models';
import type { EventReadModel } from './event-read-model';
import { IndexNames } from './index-names';
import { projectDetectionStates, type StateTopicRecord } from './read-model-projector';
import type { ReadModelWriter } from './read-model-writer';
import { ensureSqlReadModels } from './sql-read-model-migrations';
import { SqlEventReadModel } from './sql-event-read-model';
import { SqlReadModelWriter } from './sql-read-model-writer';

jest.setTimeout(120_000);

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0);

const anEvent = (detectionId: string, n: number): DetectionEvent => ({
  id: `evt-${n}`,
  detectionId,
  detectionName: 'Impossible travel',
  personName: `Person ${n}`,
  personEmail: `person${n}@example.com`,
  description: `Sign-in from a new country (${n})`,
  timestamp: T0 + n,
  riskScore: n,
  source: n % 2 ? 'okta' : 'github',
});

function stateOf(detectionId: string, count: number, notifyAt?: number): DetectionState {
  const events = Array.from({ length: count }, (_, i) => anEvent(detectionId, i + 1));
  const state = applyEvents(undefined, events, T0).state;
  if (notifyAt === undefined) return state;
  const settings = {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    webhookEnabled: true,
    webhookProviderIds: ['p'],
  };
  return decide(state, settings, notifyAt).state;
}

const record = (key: string, value: Buffer | null, at: number): StateTopicRecord => ({
  key: Buffer.from(key),
  value,
  raw: { timestamp: String(at) },
});
const stateRecord = (state: object, at: number, key = (state as DetectionState).detectionId) =>
  record(key, Buffer.from(JSON.stringify({ ...state, windowSegmentSize: 100 })), at);

/** What the read model keeps of a state: all but the de-duplication window. */
function snapshotOf(state: DetectionState) {
  const { recentEventIds: _ids, overflowUserHashes: _hashes, ...snapshot } = state;
  return snapshot;
}

const scratch = mkdtempSync(join(tmpdir(), 'vigil-detection-states-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Backend = { writer: ReadModelWriter; model: EventReadModel; close(): Promise<void> };

async function onSql(open: () => Promise<SqlClient>): Promise<Backend> {
  const sql = await open();
  await ensureSqlReadModels(sql);
  return {
    writer: new SqlReadModelWriter(sql),
    model: new SqlEventReadModel(sql),
    close: () => sql.close(),
  };
}

const backends: [string, () => Promise<Backend>][] = [
  ['PostgreSQL', () => onSql(async () => createPgSqlClient(process.env.DATABASE_URL!, 2))],
  ['PGlite', () => onSql(() => openPgliteSqlClient(join(scratch, 'db')))],
  [
    'Elasticsearch',
    async () => {
      const es: Client = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
      const searcher = new ElasticsearchSearcher(process.env.ELASTICSEARCH_URL!);
      const names = new IndexNames(`${process.env.VIGIL_INDEX_PREFIX}states-`);
      await ensureReadModels(es, names);
      const writer = new ElasticsearchReadModelWriter(es, names);
      return {
        writer: {
          indexEvents: (events, now) => writer.indexEvents(events, now),
          indexInvestigations: (reports) => writer.indexInvestigations(reports),
          // Searchable at once, as a page read a moment later finds it.
          indexDetectionStates: async (states, now) => {
            const rejected = await writer.indexDetectionStates(states, now);
            await es.indices.refresh({ index: names.alias('detection-states') });
            return rejected;
          },
        },
        model: new ElasticsearchEventReadModel(es, names, searcher),
        close: async () => {
          await searcher.close();
          await es.close();
        },
      };
    },
  ],
];

describe.each(backends)('detection states read model on %s', (_name, open) => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps the last state the processor recorded for each detection, without its window', async () => {
    const first = stateOf('det-a', 3);
    const notified = stateOf('det-a', 5, T0 + 60_000);
    const other = stateOf('det-b', 2);
    const unreadable = await projectDetectionStates(
      backend.writer,
      [stateRecord(first, T0 + 1), stateRecord(other, T0 + 2), stateRecord(notified, T0 + 3)],
      T0 + 10,
    );
    expect(unreadable).toEqual([]);
    expect(await backend.model.getDetectionState('det-a')).toEqual({
      snapshot: snapshotOf(notified),
      recordedAt: T0 + 3,
    });
    expect(await backend.model.getDetectionState('det-b')).toEqual({
      snapshot: snapshotOf(other),
      recordedAt: T0 + 2,
    });
    expect(await backend.model.getDetectionState('det-none')).toBeNull();
  });

  it('keeps the newer state when an older one is replayed', async () => {
    const newer = stateOf('det-c', 4);
    await projectDetectionStates(backend.writer, [stateRecord(newer, T0 + 500)], T0);
    await projectDetectionStates(backend.writer, [stateRecord(stateOf('det-c', 2), T0 + 100)], T0);
    expect(await backend.model.getDetectionState('det-c')).toMatchObject({
      snapshot: { count: 4 },
      recordedAt: T0 + 500,
    });
  });

  it('passes over the other records of the state topic and names the ones it cannot read', async () => {
    const records = [
      record('investigation:inv-1', Buffer.from('{"schemaVersion":1}'), T0),
      record('dedup-window:100/0:det-d', Buffer.from('["evt-1"]'), T0),
      record('det-d', null, T0),
      record('det-e', Buffer.from('{'), T0),
      stateRecord(stateOf('det-f', 1), T0, 'det-g'),
    ];
    const unreadable = await projectDetectionStates(backend.writer, records, T0);
    expect(unreadable.map((u) => [u.record.key?.toString(), u.reason])).toEqual([
      ['det-e', 'not JSON'],
      ['det-g', 'a state of another detection'],
    ]);
    expect(await backend.model.getDetectionState('det-d')).toBeNull();
  });

  it('reads a state recorded by a processor that did not keep scores and sources', async () => {
    const current = stateOf('det-old', 2, T0);
    const { newMaxRiskScore: _a, newSources: _b, ...webhook } = current.channels.webhook;
    const { newMaxRiskScore: _c, newSources: _d, ...email } = current.channels.email;
    const old = { ...current, channels: { webhook, email } };
    await projectDetectionStates(backend.writer, [stateRecord(old, T0 + 7)], T0);
    const read = await backend.model.getDetectionState('det-old');
    expect(read?.snapshot.channels.email).toEqual({
      ...email,
      newMaxRiskScore: null,
      newSources: [],
    });
  });
});
