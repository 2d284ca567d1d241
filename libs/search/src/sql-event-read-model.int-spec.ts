import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import {
  anEventRecord,
  anInvestigationRecord,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import { createPgSqlClient, openPgliteSqlClient, type SqlClient } from '@vigil/control-plane';
import { parseQuery } from '@vigil/query-language';
import { createElasticsearchClient } from './create-elasticsearch-client';
import { ElasticsearchEventReadModel } from './elasticsearch-event-read-model';
import { ElasticsearchSearcher } from './elasticsearch-searcher';
import { ElasticsearchReadModelWriter } from './elasticsearch-read-model-writer';
import { ensureReadModels } from './ensure-read-models';
import type { EventReadModel, EventSortKey } from './index';
import { IndexNames } from './index-names';
import { ensureSqlReadModels } from './sql-read-model-migrations';
import { SqlEventReadModel } from './sql-event-read-model';
import { SqlReadModelWriter } from './sql-read-model-writer';

jest.setTimeout(120_000);

const T0 = Date.UTC(2025, 5, 1, 8, 0, 0, 0);
const EMAILS = ['ada@example.com', 'Ada@Example.com', 'zoë@example.com', 'Zoë@x.io', 'İlker@x.io'];
const IDS = ['evt-', 'EVT-', 'é-', 'Z', 'a'];

/** Ties on happened, ids and emails that differ only by case or by non-ASCII letters. */
function dataSet(): { events: DetectionEventRecord[]; reports: InvestigationRecord[] } {
  const events = Array.from({ length: 240 }, (_, i) =>
    anEventRecord({
      id: `${IDS[i % IDS.length]}${(i * 7919) % 241}`,
      detection_id: `det-${i % 7}`,
      detection_name: `Detection ${i % 7} v${i % 3}`,
      employee_email: i % 5 === 0 ? `user${i % 40}@Corp.example` : EMAILS[i % EMAILS.length],
      employee_name: `Person ${i % 11}`,
      happened: T0 + (i % 13) * 60_000 + (i % 7 === 3 ? 1 : 0),
      risk_score: (i % 17) / 2,
      source: ['okta', 'Okta', 'github'][i % 3],
      high_prevalence: i % 4 === 0,
      allowlisted: i % 6 === 0,
    }),
  );
  const reports = [anInvestigationRecord({ id: 'inv-1', detection: { id: 'det-1', name: 'D' } })];
  return { events, reports };
}

const QUERIES = [
  '',
  "risk_score >= 4 AND source = 'okta'",
  "employee_email = 'ADA@example.com' OR id < 'Z'",
  "NOT allowlisted = true AND happened > '2025-06-01T08:03:00.000Z'",
  "source IN ('github', 'Okta') AND id >= 'evt-1'",
];

async function allEvents(
  model: EventReadModel,
  query: string,
  limit: number,
  detectionId?: string,
) {
  const pages: { ids: string[]; next: EventSortKey | null }[] = [];
  let after: EventSortKey | undefined;
  do {
    const page = await model.searchEvents({ query: parseQuery(query), limit, after, detectionId });
    pages.push({ ids: page.items.map((e) => e.id), next: page.next });
    after = page.next ?? undefined;
  } while (after !== undefined);
  return pages;
}

const scratch = mkdtempSync(join(tmpdir(), 'vigil-sql-read-model-'));
const { events, reports } = dataSet();
let es: Client;
let searcher: ElasticsearchSearcher;
let reference: ElasticsearchEventReadModel;

beforeAll(async () => {
  es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
  const names = new IndexNames(`${process.env.VIGIL_INDEX_PREFIX}sql-contract-`);
  await ensureReadModels(es, names);
  const writer = new ElasticsearchReadModelWriter(es, names);
  expect(await writer.indexEvents(events, T0)).toEqual([]);
  expect(await writer.indexInvestigations(reports)).toEqual([]);
  await es.indices.refresh({ index: names.alias('events') });
  await es.indices.refresh({ index: names.alias('investigations') });
  searcher = new ElasticsearchSearcher(process.env.ELASTICSEARCH_URL!);
  reference = new ElasticsearchEventReadModel(es, names, searcher);
});

afterAll(async () => {
  await searcher?.close();
  await es?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const backends: [string, () => Promise<SqlClient>][] = [
  ['PostgreSQL', async () => createPgSqlClient(process.env.DATABASE_URL!, 2)],
  ['PGlite', () => openPgliteSqlClient(join(scratch, 'db'))],
];

describe.each(backends)('SqlEventReadModel on %s, against Elasticsearch', (_name, open) => {
  let sql: SqlClient;
  let model: SqlEventReadModel;

  beforeAll(async () => {
    sql = await open();
    await ensureSqlReadModels(sql);
    await ensureSqlReadModels(sql);
    const writer = new SqlReadModelWriter(sql);
    // Twice, in two batches the second time: a replay changes nothing.
    expect(await writer.indexEvents(events, T0)).toEqual([]);
    expect(await writer.indexEvents(events.slice(0, 100), T0)).toEqual([]);
    expect(await writer.indexEvents(events.slice(100), T0)).toEqual([]);
    expect(await writer.indexInvestigations([...reports, ...reports])).toEqual([]);
    model = new SqlEventReadModel(sql);
  });

  afterAll(async () => {
    await sql?.close();
  });

  it.each(QUERIES)('returns the same pages and cursors for %p', async (query) => {
    for (const limit of [1, 7, 100]) {
      expect(await allEvents(model, query, limit)).toEqual(
        await allEvents(reference, query, limit),
      );
    }
    expect(await allEvents(model, query, 5, 'det-3')).toEqual(
      await allEvents(reference, query, 5, 'det-3'),
    );
    const sqlPage = await model.searchEvents({ query: parseQuery(query), limit: 3 });
    const esPage = await reference.searchEvents({ query: parseQuery(query), limit: 3 });
    expect(sqlPage.items).toEqual(esPage.items);
  });

  it('gives the same detection summaries and existence', async () => {
    for (const id of ['det-0', 'det-3', 'det-6', 'det-none']) {
      expect(await model.getDetection(id)).toEqual(await reference.getDetection(id));
      expect(await model.detectionExists(id)).toBe(await reference.detectionExists(id));
    }
  });

  it('lists the same sources, in the same order', async () => {
    const sources = await model.listSources();
    expect(sources.length).toBeGreaterThan(1);
    expect(sources).toEqual([...new Set(events.map((e) => e.source))].sort());
    expect(sources).toEqual(await reference.listSources());
  });

  it('lists detections in the same order, pages and cursors', async () => {
    for (const limit of [1, 3, 10]) {
      let cursor: string | undefined;
      do {
        const [mine, theirs] = await Promise.all([
          model.listDetections({ limit, cursor }),
          reference.listDetections({ limit, cursor }),
        ]);
        expect(mine).toEqual(theirs);
        cursor = theirs.nextCursor ?? undefined;
      } while (cursor !== undefined);
    }
  });

  it('lists affected users by normalized email with exact figures, page by page', async () => {
    for (const detectionId of ['det-0', 'det-4', 'det-none']) {
      for (const limit of [1, 4, 50]) {
        let after: string | undefined;
        do {
          const [mine, theirs] = await Promise.all([
            model.listAffectedUsers({ detectionId, limit, after }),
            reference.listAffectedUsers({ detectionId, limit, after }),
          ]);
          expect(mine).toEqual(theirs);
          after = theirs.next ?? undefined;
        } while (after !== undefined);
      }
    }
  });

  it('returns the same investigation report', async () => {
    expect(await model.getInvestigation('inv-1')).toEqual(
      await reference.getInvestigation('inv-1'),
    );
    expect(await model.getInvestigation('inv-none')).toBeNull();
  });

  it('refuses only the record the database cannot store, and writes the rest', async () => {
    const writer = new SqlReadModelWriter(sql);
    const good = anEventRecord({ id: 'nul-ok', detection_id: 'det-nul' });
    const bad = anEventRecord({ id: 'nul-bad', detection_id: 'det-nul', description: 'a\u0000b' });
    const rejected = await writer.indexEvents([good, bad], T0);
    expect(rejected.map((r) => r.record.id)).toEqual(['nul-bad']);
    expect((await model.getDetection('det-nul'))?.event_count).toBe(1);
  });
});
