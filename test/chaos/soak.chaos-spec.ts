import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog } from '@vigil/kafka';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { anEventInput } from '../support/factories';
import { freePort } from '../support/free-port';
import { request } from '../support/http-client';
import { WebhookReceiver } from '../support/webhook-receiver';
import { AppProcess } from './support/app-process';
import { chaosScale } from './support/chaos-scale';
import { compileApps, repositoryRoot } from './support/compiled-apps';
import { consumerLag, type ConsumerGroupTopic } from './support/consumer-lag';
import { svgToPng, timeSeriesSvg, type Series } from './support/time-series-chart';

/**
 * Soak: a steady ingest rate through the ingest app, queries against the API and webhook
 * deliveries, for SOAK_MS. Every few seconds the RSS of each app process, the lag of each
 * consumer group and the query latency are sampled; the samples go to a CSV and a PNG chart
 * under .vigil/soak/. Memory must be flat over the second half and every lag back to ~0 at the
 * end. VIGIL_SOAK_SECONDS overrides the duration.
 */
const SOAK_MS = Number(process.env.VIGIL_SOAK_SECONDS ?? 0) * 1000 || chaosScale(60_000, 1_800_000);
const SAMPLE_MS = SOAK_MS >= 600_000 ? 10_000 : 2_000;
const EVENTS_PER_SECOND = 200;
const INGEST_EVERY_MS = 250;
const QUERY_EVERY_MS = 500;
const DETECTIONS = 500;
const CATCH_UP_MS = 120_000;
/**
 * Bound on the RSS growth rate over the second half, MB per minute. A minute-long run still
 * includes JIT warm-up and heap sizing, so the short form only catches gross leaks; over
 * 30 minutes 2 MB/min would be 30 MB in the second half.
 */
const MAX_RSS_SLOPE_MB_PER_MIN = SOAK_MS >= 600_000 ? 2 : 60;
const PARTITIONS = Number(process.env.VIGIL_TOPIC_PARTITIONS);
const PREFIX = process.env.VIGIL_TOPIC_PREFIX!;
const APPS = ['stream-processor', 'indexer', 'notifier', 'ingest', 'api'] as const;

jest.setTimeout(SOAK_MS + CATCH_UP_MS + 240_000);

interface Sample {
  at: number;
  rssMb: Record<string, number | null>;
  lag: Record<string, number>;
  queryP50Ms: number | null;
  queryMaxMs: number | null;
  eventsSent: number;
  webhooks: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('soak: steady ingest, queries and deliveries', () => {
  const buildDir = join(repositoryRoot, '.vigil', 'chaos', `${PREFIX}build`);
  const outDir = join(
    repositoryRoot,
    '.vigil',
    'soak',
    new Date().toISOString().replace(/[:.]/g, '-'),
  );
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const topics = new TopicCatalog(PREFIX, PARTITIONS);
  const groups: Record<string, ConsumerGroupTopic> = {
    'stream-processor': {
      groupId: `${PREFIX}vigil-stream-processor`,
      topic: topics.detectionEvents,
    },
    indexer: { groupId: `${PREFIX}vigil-indexer`, topic: topics.detectionEvents },
    notifier: { groupId: `${PREFIX}vigil-notifier`, topic: topics.notificationCommands },
  };
  let apps: AppProcess[] = [];
  let receiver: WebhookReceiver;
  let sql: SqlClient;
  let admin: Admin;
  let token: string;
  let ingestUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const { provider } = await providers.enroll({
      name: 'SOAR',
      kind: 'custom',
      url: receiver.url('/soar'),
    });
    await new SqlNotificationSettingsStore(sql).saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'immediate',
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
      emailEnabled: false,
    });
    token = (
      await createApiTokenService(sql).createToken({
        name: 'soak',
        permissions: { detection: 'write' },
      })
    ).value;

    await compileApps(buildDir);
    const [ingestPort, apiPort] = [await freePort(), await freePort()];
    ingestUrl = `http://127.0.0.1:${ingestPort}`;
    apiUrl = `http://127.0.0.1:${apiPort}`;
    const env = {
      ...process.env,
      INGEST_PORT: String(ingestPort),
      API_PORT: String(apiPort),
      API_RATE_LIMIT_PER_MINUTE: '1000000',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      NOTIFIER_RETRY_SCHEDULE: '1s,5s,30s',
      // The processor remembers up to this many event ids per detection (by design, to drop
      // resends); a small window fills within the first minute, so later growth is a leak.
      PROCESSOR_DEDUP_WINDOW: '20',
    };
    apps = APPS.map((app) => new AppProcess(app, buildDir, env));
    // The processor first: it creates the topics and registers the record schemas.
    await apps[0].start();
    await Promise.all(apps.slice(1).map((app) => app.start()));
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await admin?.disconnect();
    await receiver?.stop();
    await sql?.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('keeps memory flat and the consumers caught up', async () => {
    const started = Date.now();
    const until = started + SOAK_MS;
    const latencies: number[] = [];
    const failures: string[] = [];
    let eventsSent = 0;

    const ingesting = (async () => {
      const perRequest = (EVENTS_PER_SECOND * INGEST_EVERY_MS) / 1000;
      for (let tick = 1; Date.now() < until; tick++) {
        const events = Array.from({ length: perRequest }, (_, i) =>
          anEventInput({
            detection_id: `det-${(eventsSent + i) % DETECTIONS}`,
            happened: new Date().toISOString(),
          }),
        );
        const response = await request('POST', `${ingestUrl}/ingest/v1/detection-events`, {
          token,
          json: events,
        });
        if (response.status === 202) eventsSent += events.length;
        else failures.push(`ingest ${response.status} ${JSON.stringify(response.body)}`);
        await sleep(started + tick * INGEST_EVERY_MS - Date.now());
      }
    })();

    const querying = (async () => {
      for (let n = 0; Date.now() < until; n++) {
        const begun = performance.now();
        const response = await request('POST', `${apiUrl}/api-key/v1/events`, {
          token,
          json: { query: `source = 'okta' AND risk_score >= ${n % 10}` },
        });
        latencies.push(performance.now() - begun);
        if (response.status !== 200) {
          failures.push(`query ${response.status} ${JSON.stringify(response.body)}`);
        }
        await sleep(QUERY_EVERY_MS);
      }
    })();

    const samples: Sample[] = [];
    while (Date.now() < until) {
      await sleep(SAMPLE_MS);
      const window = latencies.splice(0).sort((a, b) => a - b);
      samples.push({
        at: (Date.now() - started) / 1000,
        rssMb: Object.fromEntries(apps.map((app) => [app.app, megabytes(app.rssBytes())])),
        lag: await lags(),
        queryP50Ms: window.length ? window[Math.floor(window.length / 2)] : null,
        queryMaxMs: window.length ? window[window.length - 1] : null,
        eventsSent,
        webhooks: receiver.received.length,
      });
    }
    await Promise.all([ingesting, querying]);

    // After the load stops, every consumer must catch up.
    const catchUpDeadline = Date.now() + CATCH_UP_MS;
    let finalLag = await lags();
    while (!caughtUp(finalLag) && Date.now() < catchUpDeadline) {
      await sleep(2_000);
      finalLag = await lags();
    }

    const slopes = Object.fromEntries(APPS.map((app) => [app, rssSlopeMbPerMinute(samples, app)]));
    const report = await writeReport(samples);
    console.log(
      [
        `soak ${Math.round(SOAK_MS / 1000)} s: ${eventsSent} events at ${EVENTS_PER_SECOND}/s, ${receiver.received.length} webhooks, ${samples.length} samples`,
        `RSS slope over the second half (MB/min): ${Object.entries(slopes)
          .map(([app, slope]) => `${app} ${slope.toFixed(2)}`)
          .join(', ')}`,
        `RSS at the end (MB): ${Object.entries(samples[samples.length - 1]?.rssMb ?? {})
          .map(([app, mb]) => `${app} ${mb}`)
          .join(', ')}`,
        `lag after catch-up: ${JSON.stringify(finalLag)}, max lag during the soak: ${JSON.stringify(maxLags(samples))}`,
        `query latency p50 of the sample medians: ${median(samples.map((s) => s.queryP50Ms ?? 0)).toFixed(1)} ms, worst: ${Math.max(...samples.map((s) => s.queryMaxMs ?? 0)).toFixed(0)} ms`,
        `samples: ${report.csv}`,
        `chart: ${report.png}`,
      ].join('\n'),
    );

    expect(failures.slice(0, 10)).toEqual([]);
    expect(eventsSent).toBeGreaterThan(0.9 * EVENTS_PER_SECOND * (SOAK_MS / 1000));
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(caughtUp(finalLag)).toBe(true);
    const growing = Object.entries(slopes).filter(
      ([, slope]) => !(slope < MAX_RSS_SLOPE_MB_PER_MIN),
    );
    expect(growing).toEqual([]);
  });

  async function lags(): Promise<Record<string, number>> {
    const entries = await Promise.all(
      Object.entries(groups).map(async ([app, group]) => [app, await consumerLag(admin, group)]),
    );
    return Object.fromEntries(entries) as Record<string, number>;
  }

  /** Transaction markers leave at most one record per partition uncommitted. */
  function caughtUp(lag: Record<string, number>): boolean {
    return Object.values(lag).every((records) => records <= PARTITIONS);
  }

  async function writeReport(samples: Sample[]): Promise<{ csv: string; png: string }> {
    mkdirSync(outDir, { recursive: true });
    const header = [
      'seconds',
      ...APPS.map((app) => `rss_mb_${app}`),
      ...Object.keys(groups).map((app) => `lag_${app}`),
      'query_p50_ms',
      'query_max_ms',
      'events_sent',
      'webhooks',
    ];
    const rows = samples.map((s) =>
      [
        s.at.toFixed(1),
        ...APPS.map((app) => s.rssMb[app] ?? ''),
        ...Object.keys(groups).map((app) => s.lag[app]),
        s.queryP50Ms?.toFixed(1) ?? '',
        s.queryMaxMs?.toFixed(1) ?? '',
        s.eventsSent,
        s.webhooks,
      ].join(','),
    );
    const csv = join(outDir, 'soak.csv');
    writeFileSync(csv, [header.join(','), ...rows].join('\n') + '\n');
    const svg = timeSeriesSvg([
      {
        title: 'Resident memory per app',
        unit: 'MB',
        series: APPS.map((app) => series(app, samples, (s) => s.rssMb[app])),
      },
      {
        title: 'Consumer lag per group',
        unit: 'records',
        series: Object.keys(groups).map((app) => series(app, samples, (s) => s.lag[app])),
      },
      {
        title: 'Query latency per sample',
        unit: 'ms',
        series: [
          series('p50', samples, (s) => s.queryP50Ms),
          series('max', samples, (s) => s.queryMaxMs),
        ],
      },
    ]);
    writeFileSync(join(outDir, 'soak.svg'), svg);
    const png = join(outDir, 'soak.png');
    writeFileSync(png, await svgToPng(svg));
    return { csv, png };
  }
});

function series(name: string, samples: Sample[], value: (s: Sample) => number | null): Series {
  return {
    name,
    points: samples.flatMap((s) => {
      const v = value(s);
      return v === null ? [] : [[s.at, v] as [number, number]];
    }),
  };
}

/** Least-squares slope of an app's RSS over the second half of the samples, in MB per minute. */
function rssSlopeMbPerMinute(samples: Sample[], app: string): number {
  const points = samples
    .slice(Math.floor(samples.length / 2))
    .flatMap((s) => (s.rssMb[app] === null ? [] : [[s.at / 60, s.rssMb[app]] as const]));
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((n, [x]) => n + x, 0) / points.length;
  const meanY = points.reduce((n, [, y]) => n + y, 0) / points.length;
  const covariance = points.reduce((n, [x, y]) => n + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((n, [x]) => n + (x - meanX) ** 2, 0);
  return covariance / variance;
}

function maxLags(samples: Sample[]): Record<string, number> {
  const max: Record<string, number> = {};
  for (const s of samples) {
    for (const [app, lag] of Object.entries(s.lag)) max[app] = Math.max(max[app] ?? 0, lag);
  }
  return max;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

function megabytes(bytes: number | null): number | null {
  return bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;
}
