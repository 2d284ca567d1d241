/**
 * Query API latency against its baseline, Elasticsearch queried directly with the same compiled
 * query, in the same run: 1,000,000 generated events in an index prefix of their own, then an
 * id lookup and a three-condition query, sequentially, API and direct interleaved.
 *
 * A third side, a bare node:http server that forwards the same search to Elasticsearch and
 * answers the page as JSON (no framework, no token), shows what the extra HTTP hop alone costs:
 * the floor any API in front of Elasticsearch pays on this machine. A fourth, the same forwarder
 * checking each request's token the least way the design allows (one coalesced PostgreSQL lookup
 * by SHA-256, see leastTokenCheck), is the floor of an API that must refuse a deleted token on
 * its next request.
 *
 * Then the same searches from BENCH_CLIENTS (8) closed-loop clients for BENCH_CONCURRENT_SECONDS
 * (10) per side, in BENCH_SLICES (10) slices the sides take in turn, BENCH_PASSES (3) passes:
 * requests per second, p50 and p99, and the CPU time per request of the API and of the
 * forwarders (each in a process of its own, run built as deployed) and of Elasticsearch.
 *
 *   npm run bench:query        (BENCH_EVENTS, BENCH_ITERATIONS override the sizes;
 *                               BENCH_API_NODE_FLAGS adds node flags to the API's process,
 *                               BENCH_BARE_NODE_FLAGS to the bare forwarder's,
 *                               BENCH_CHECKED_NODE_FLAGS to the one with the token check)
 *
 * Needs the local servers (deploy/local/servers.sh). Cleans up its index and database.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { createApiTokenService, createPgSqlClient } from '@vigil/control-plane';
import { IndexNames, createElasticsearchClient, toEventDocument } from '@vigil/search';
import { startApi } from '../apps/api/src/start-api';
import { loadAverage, median, medianAndSpread, passCount } from './support/bench-passes';
import { startBenchProcess } from './support/bench-process';
import {
  closedLoop,
  combinedClosedLoops,
  cpuSecondsOfProcess,
  type ClosedLoopResult,
} from './support/closed-loop';
import { searchRequest } from './support/search-request';
import { latencyWithAndWithoutMetrics } from './support/metrics-overhead';
import { BENCH_SERVERS } from './support/bench-servers';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2_000);
const WARMUP = 200;
const SIDES = ['api', 'direct', 'bare', 'checked'] as const;
type Side = (typeof SIDES)[number];
const SIDE_NAMES: Record<Side, string> = {
  api: 'API',
  direct: 'direct',
  bare: 'bare forwarder',
  checked: 'forwarder with token check',
};
/** A value of each side's own, made by `make`. */
const perSide = <T>(make: () => T) =>
  Object.fromEntries(SIDES.map((side) => [side, make()])) as Record<Side, T>;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const CONCURRENT_MS = Number(process.env.BENCH_CONCURRENT_SECONDS ?? 10) * 1000;
/** Into how many slices each side's time of a pass is cut (BENCH_SLICES, 10), taken in turn. */
const SLICES = Math.max(1, Number(process.env.BENCH_SLICES ?? 10));
const BATCH = 10_000;
const PARALLEL_BULKS = 3;
const ELASTICSEARCH_URL = BENCH_SERVERS.elasticsearchUrl;
const ADMIN_URL = BENCH_SERVERS.postgresAdminUrl;
const SOURCES = ['okta', 'google', 'github', 'slack', 'crowdstrike'];
const BASE = Date.UTC(2025, 0, 1);
const SPAN_MS = 180 * 86_400_000;

const eventId = (i: number) => `evt-${String(i).padStart(7, '0')}`;

/** Event i, computed rather than stored: a cheap hash spreads the values. */
function eventRecord(i: number) {
  const h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  return {
    id: eventId(i),
    detection_id: `det-${h % 500}`,
    detection_name: `Detection ${h % 500}`,
    issue_type: 'impossible_travel',
    employee_email: `user${h % 20_000}@example.com`,
    employee_name: `User ${h % 20_000}`,
    asset_name: `laptop-${h % 5_000}`,
    happened: BASE + (h % SPAN_MS),
    risk_score: (h % 1_000) / 100,
    source: SOURCES[h % SOURCES.length],
    high_prevalence: h % 7 === 0,
    allowlisted: h % 11 === 0,
    description: 'generated',
  };
}

/**
 * POSTs JSON over a kept-alive connection with node:http: fetch's WHATWG streams cost about
 * half a millisecond a request in this process, which the direct side, on the Elasticsearch
 * client's undici pool, does not pay.
 */
function postJson(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

type ElasticsearchClient = ReturnType<typeof createElasticsearchClient>;

/**
 * How to read the CPU seconds Elasticsearch has used so far, summed over its nodes: from /proc
 * when its nodes run on this machine (live, to the clock tick), else from its node stats, which
 * it refreshes only once a second (too coarse for slices of a second).
 */
async function elasticsearchCpuReader(es: ElasticsearchClient): Promise<() => Promise<number>> {
  const info = await es.nodes.info({ metric: 'process' });
  const nodes = Object.values(info.nodes);
  const pids = nodes.flatMap((node) => (node.process?.id === undefined ? [] : [node.process.id]));
  // A pid of this machine that is an Elasticsearch, not another machine's number.
  const isLocalNode = (pid: number) =>
    existsSync(`/proc/${pid}/cmdline`) &&
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('elasticsearch');
  const local = pids.length === nodes.length && pids.every(isLocalNode);
  if (local) {
    return () => Promise.resolve(pids.reduce((sum, pid) => sum + cpuSecondsOfProcess(pid), 0));
  }
  console.log('Elasticsearch runs elsewhere: its CPU is read from its node stats');
  return async () => {
    const stats = await es.nodes.stats({ metric: 'process' });
    const millis = Object.values(stats.nodes).reduce(
      (sum, node) => sum + (node.process?.cpu?.total_in_millis ?? 0),
      0,
    );
    return millis / 1000;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const prefix = `bench-${runId}-`;
  const database = `vigil_bench_${runId}`;
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  // Bulk loads and the refresh after them take minutes on a slow day: the client's own timeout
  // bounds every request's (see createElasticsearchClient).
  const es = createElasticsearchClient(ELASTICSEARCH_URL, { requestTimeoutMs: 300_000 });
  const names = new IndexNames(prefix);
  const admin = new PgClient({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let stopApi: (() => Promise<void>) | undefined;
  let stopApiWithoutMetrics: (() => Promise<void>) | undefined;
  let stopBare: (() => Promise<void>) | undefined;
  let stopChecked: (() => Promise<void>) | undefined;
  let stopApiProcess: (() => Promise<void>) | undefined;
  try {
    const apiEnv = {
      ...process.env,
      API_PORT: '0',
      OPS_PORT: '0',
      LOG_LEVEL: 'warn',
      ELASTICSEARCH_URL,
      DATABASE_URL: databaseUrl.toString(),
      VIGIL_INDEX_PREFIX: prefix,
      API_RATE_LIMIT_PER_MINUTE: '100000000',
    };
    const app = await startApi({ ...apiEnv, VIGIL_METRICS: 'on' });
    stopApi = () => app.stop();
    // The same API without metrics, for what they cost.
    const appWithoutMetrics = await startApi({ ...apiEnv, VIGIL_METRICS: 'off' });
    stopApiWithoutMetrics = () => appWithoutMetrics.stop();
    const sql = createPgSqlClient(databaseUrl.toString(), 2);
    const tokens = createApiTokenService(sql);
    const token = (await tokens.createToken({ name: 'bench', permissions: { detection: 'read' } }))
      .value;

    // Load with refresh off, then one refresh.
    const index = names.alias('events');
    await es.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
    const loadStart = performance.now();
    const now = Date.now();
    let nextBatch = 0;
    let loadFailed = false;
    const loader = async () => {
      for (;;) {
        if (loadFailed) return;
        const start = nextBatch * BATCH;
        nextBatch += 1;
        if (start >= EVENTS) return;
        const operations: object[] = [];
        for (let i = start; i < Math.min(EVENTS, start + BATCH); i += 1) {
          const record = eventRecord(i);
          operations.push(
            { index: { _index: index, _id: record.id } },
            toEventDocument(record, now),
          );
        }
        const response = await es.bulk({ operations, refresh: false });
        if (response.errors) throw new Error('bulk load rejected documents');
      }
    };
    // On a failed bulk the other loaders stop and finish before cleanup runs: a bulk sent after
    // the index is deleted would create a stray index named after the alias.
    const loads = await Promise.allSettled(
      Array.from({ length: PARALLEL_BULKS }, () =>
        loader().catch((error: unknown) => {
          loadFailed = true;
          throw error;
        }),
      ),
    );
    for (const load of loads) if (load.status === 'rejected') throw load.reason;
    await es.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
    await es.indices.refresh({ index });
    // Background merges after the load would disturb whichever query is measured first.
    for (let waited = 0; waited < 300; waited += 1) {
      const stats = await es.indices.stats({ index, metric: 'merge' });
      if ((stats._all.total?.merges?.current ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const count = (await es.count({ index })).count;
    console.log(
      `loaded ${count} events in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
    );

    const queries: { name: string; text: (i: number) => string }[] = [
      { name: 'id lookup', text: (i) => `id = '${eventId((i * 7919) % EVENTS)}'` },
      {
        name: 'three conditions',
        text: (i) =>
          `risk_score > ${(i % 9) + 0.5} AND source = '${SOURCES[i % SOURCES.length]}' AND ` +
          `happened >= '${new Date(BASE + ((i * 86_400_000) % SPAN_MS)).toISOString()}'`,
      },
    ];
    // Both servers run built, as deployed: through ts-node each would also load node's REPL, and
    // with it the domain module, which makes every EventEmitter (a request, a response, a
    // socket) several times dearer to create and to emit on.
    execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
    const bare = await startBenchProcess({
      script: 'dist/bench/support/bare-forwarder-server.js',
      env: { ...process.env, ELASTICSEARCH_URL, BENCH_INDEX: index },
      portVariable: 'BENCH_PORT',
      probePath: '/',
      nodeFlags: (process.env.BENCH_BARE_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    });
    stopBare = bare.stop;
    const checked = await startBenchProcess({
      script: 'dist/bench/support/bare-forwarder-server.js',
      env: {
        ...process.env,
        ELASTICSEARCH_URL,
        BENCH_INDEX: index,
        BENCH_TOKEN_DATABASE_URL: databaseUrl.toString(),
      },
      portVariable: 'BENCH_PORT',
      probePath: '/',
      nodeFlags: (process.env.BENCH_CHECKED_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    });
    stopChecked = checked.stop;
    // The floor must do the check it stands for: an unknown token and a deleted one are refused.
    const deleted = await tokens.createToken({
      name: 'deleted',
      permissions: { detection: 'read' },
    });
    await tokens.deleteToken(deleted.token.id);
    for (const refused of ['vgk1-unknown', deleted.value]) {
      const answer = await postJson(
        agent,
        checked.url,
        { authorization: `Bearer ${refused}`, 'content-type': 'application/json' },
        JSON.stringify({ query: queries[0].text(0) }),
      ).catch(() => ({ status: 0 }));
      if (answer.status !== 401) throw new Error(`the token check answered ${answer.status}`);
    }
    // The API in a process of its own, like the bare forwarder, so each one's CPU time per
    // request can be set beside Elasticsearch's and neither shares the clients' event loop.
    const apiProcess = await startBenchProcess({
      script: 'dist/apps/api/src/main.js',
      env: { ...apiEnv, VIGIL_METRICS: 'on' },
      portVariable: 'API_PORT',
      probePath: '/api-key/v1/events',
      // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a CPU profile of the API under the load.
      nodeFlags: (process.env.BENCH_API_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    });
    stopApiProcess = apiProcess.stop;
    /** One query over `via`'s connections; the number of items of the page answered. */
    const postQuery = async (
      via: Agent,
      url: string,
      headers: Record<string, string>,
      text: string,
    ) => {
      const response = await postJson(
        via,
        url,
        { ...headers, 'content-type': 'application/json' },
        JSON.stringify({ query: text }),
      );
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      return (response.body as { items: unknown[] }).items.length;
    };
    const post = (url: string, headers: Record<string, string>, text: string) =>
      postQuery(agent, url, headers, text);
    const sides: Record<Side, (text: string) => Promise<number>> = {
      api: (text) =>
        post(`${apiProcess.url}/api-key/v1/events`, { authorization: `Bearer ${token}` }, text),
      // What the read model sends for the default page: the baseline the API is held to.
      direct: async (text) =>
        Math.min(100, (await es.search(searchRequest(index, text))).hits.hits.length),
      bare: (text) => post(bare.url, {}, text),
      checked: (text) => post(checked.url, { authorization: `Bearer ${token}` }, text),
    };
    const rows: string[] = [];
    for (const query of queries) {
      const times = perSide((): number[] => []);
      for (let i = 0; i < WARMUP + ITERATIONS; i += 1) {
        const text = query.text(i);
        // Rotate which side goes first, so none profits from caches another warmed.
        const counts = new Set<number>();
        for (let k = 0; k < SIDES.length; k += 1) {
          const side = SIDES[(i + k) % SIDES.length];
          const t0 = performance.now();
          counts.add(await sides[side](text));
          if (i >= WARMUP) times[side].push(performance.now() - t0);
        }
        if (counts.size !== 1) throw new Error(`different results for ${text}`);
      }
      const [a50, a99, d50, d99, b50, b99, c50, c99] = SIDES.flatMap((side) => {
        const sorted = times[side].sort((a, b) => a - b);
        return [percentile(sorted, 50), percentile(sorted, 99)];
      });
      rows.push(
        `${query.name.padEnd(17)} API p50 ${a50.toFixed(2)} ms  p99 ${a99.toFixed(2)} ms | ` +
          `direct p50 ${d50.toFixed(2)} ms  p99 ${d99.toFixed(2)} ms | ` +
          `p50 ratio ${(a50 / d50).toFixed(2)}x (target <= 1.5x)  p99 ratio ${(a99 / d99).toFixed(2)}x`,
        `${''.padEnd(17)} bare forwarder p50 ${b50.toFixed(2)} ms  p99 ${b99.toFixed(2)} ms | ` +
          `its p50 ratio to direct ${(b50 / d50).toFixed(2)}x | API p50 over it ${(a50 - b50).toFixed(2)} ms`,
        `${''.padEnd(17)} forwarder with token check p50 ${c50.toFixed(2)} ms  p99 ${c99.toFixed(2)} ms | ` +
          `over the bare forwarder ${(c50 - b50).toFixed(2)} ms | API p50 over it ${(a50 - c50).toFixed(2)} ms`,
      );
    }
    console.log(`${count} events, ${ITERATIONS} iterations per query, sequential`);
    for (const row of rows) console.log(row);

    // Concurrent: CLIENTS closed-loop clients per side.
    const concurrentAgent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const concurrentPost = async (url: string, headers: Record<string, string>, text: string) => {
      await postQuery(concurrentAgent, url, headers, text);
    };
    const concurrentSides: Record<Side, (text: string) => Promise<void>> = {
      api: (text) =>
        concurrentPost(
          `${apiProcess.url}/api-key/v1/events`,
          { authorization: `Bearer ${token}` },
          text,
        ),
      direct: async (text) => {
        await es.search(searchRequest(index, text));
      },
      bare: (text) => concurrentPost(bare.url, {}, text),
      checked: (text) => concurrentPost(checked.url, { authorization: `Bearer ${token}` }, text),
    };
    const elasticsearchCpuSeconds = await elasticsearchCpuReader(es);
    const pidOf: Record<Side, number | undefined> = {
      api: apiProcess.pid,
      direct: undefined,
      bare: bare.pid,
      checked: checked.pid,
    };
    const concurrentQueries: { name: string; text: (i: number) => string }[] = [
      {
        name: "risk_score > 5 AND source = 'okta'",
        text: () => "risk_score > 5 AND source = 'okta'",
      },
      queries[0],
    ];
    console.log(
      `concurrent: ${CLIENTS} closed-loop clients, ${CONCURRENT_MS / 1000} s per side and pass ` +
        `in ${SLICES} slices taken in turn, ` +
        `${passCount()} passes, median (spread); load average ${loadAverage()}`,
    );
    for (const query of concurrentQueries) {
      const results = perSide((): ClosedLoopResult[] => []);
      // Per pass: CPU time per request of the side's own process, and of Elasticsearch meanwhile.
      const cpuMs = perSide((): number[] => []);
      const esCpuMs = perSide((): number[] => []);
      for (const side of SIDES) {
        await closedLoop(CLIENTS, 2_000, (i) => concurrentSides[side](query.text(i)));
      }
      for (let pass = 0; pass < passCount(); pass++) {
        // Each side's time is cut in slices taken in turn, so a drift of the machine's speed
        // within the pass falls on every side alike.
        const slices = perSide((): ClosedLoopResult[] => []);
        const processCpuMsOfPass = perSide(() => 0);
        const esCpuMsOfPass = perSide(() => 0);
        for (let slice = 0; slice < SLICES; slice++) {
          for (let k = 0; k < SIDES.length; k++) {
            const side = SIDES[(pass + slice + k) % SIDES.length];
            const pid = pidOf[side];
            const esBefore = await elasticsearchCpuSeconds();
            const processBefore = pid === undefined ? 0 : cpuSecondsOfProcess(pid);
            slices[side].push(
              await closedLoop(CLIENTS, CONCURRENT_MS / SLICES, (i) =>
                concurrentSides[side](query.text(i)),
              ),
            );
            esCpuMsOfPass[side] += ((await elasticsearchCpuSeconds()) - esBefore) * 1000;
            if (pid !== undefined) {
              processCpuMsOfPass[side] += (cpuSecondsOfProcess(pid) - processBefore) * 1000;
            }
          }
        }
        for (const side of SIDES) {
          const combined = combinedClosedLoops(slices[side]);
          results[side].push(combined);
          cpuMs[side].push(processCpuMsOfPass[side] / combined.requests);
          esCpuMs[side].push(esCpuMsOfPass[side] / combined.requests);
        }
      }
      const rate = (side: Side) => results[side].map((r) => r.requestsPerSecond);
      const line = (side: Side) =>
        `${medianAndSpread(rate(side))} req/s, p50 ${median(results[side].map((r) => r.p50Ms)).toFixed(2)} ms, ` +
        `p99 ${median(results[side].map((r) => r.p99Ms)).toFixed(2)} ms`;
      const ratios = (over: Side, of: Side = 'api') => rate(of).map((r, i) => r / rate(over)[i]);
      const cpuRatios = (side: Side) => cpuMs[side].map((ms, i) => ms / esCpuMs[side][i]);
      console.log(`  ${query.name}`);
      for (const side of SIDES) console.log(`    ${SIDE_NAMES[side].padEnd(15)} ${line(side)}`);
      console.log(
        `    API / direct ${medianAndSpread(ratios('direct'), 2)} (target >= 0.8); ` +
          `API / bare forwarder ${medianAndSpread(ratios('bare'), 2)} (target >= 0.9)`,
      );
      console.log(
        `    CPU per request: API ${medianAndSpread(cpuMs.api, 2)} ms, Elasticsearch ` +
          `${medianAndSpread(esCpuMs.api, 2)} ms (direct: ${medianAndSpread(esCpuMs.direct, 2)} ms); ` +
          `API / Elasticsearch ${medianAndSpread(cpuRatios('api'), 2)} (target <= 0.3)`,
      );
      console.log(
        `    forwarder with token check / bare forwarder ${medianAndSpread(ratios('bare', 'checked'), 2)} ` +
          `(the floor of API / bare forwarder); API / forwarder with token check ` +
          `${medianAndSpread(ratios('checked'), 2)}`,
      );
      console.log(
        `    CPU per request of the forwarder with token check ${medianAndSpread(cpuMs.checked, 2)} ms`,
      );
      console.log(
        `    CPU per request of the bare forwarder ${medianAndSpread(cpuMs.bare, 2)} ms, ` +
          `over Elasticsearch's ${medianAndSpread(cpuRatios('bare'), 2)} (the floor of the ratio above)`,
      );
      // What each side's searches cost Elasticsearch: the same query can cost it more when asked
      // differently (a filter_path on the API's searches once cost it 0.2 ms a search).
      console.log(
        `    Elasticsearch CPU per request: ` +
          SIDES.map((side) => `${SIDE_NAMES[side]} ${medianAndSpread(esCpuMs[side], 2)} ms`).join(
            ', ',
          ),
      );
    }
    concurrentAgent.destroy();
    for (const query of queries) {
      await latencyWithAndWithoutMetrics(
        `${query.name.padEnd(17)} API`,
        ITERATIONS,
        WARMUP,
        async (metrics, i) => {
          const url = metrics === 'on' ? app.url : appWithoutMetrics.url;
          const headers = { authorization: `Bearer ${token}` };
          await post(`${url}/api-key/v1/events`, headers, query.text(i));
        },
      );
    }
    await tokens.drain();
    await sql.close();
  } finally {
    agent.destroy();
    await stopBare?.();
    await stopChecked?.();
    await stopApiProcess?.();
    await stopApi?.();
    await stopApiWithoutMetrics?.();
    await es.indices.delete({ index: `${prefix}*` }).catch(() => undefined);
    await es.indices.deleteIndexTemplate({ name: `${prefix}*` }).catch(() => undefined);
    await es.close();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
