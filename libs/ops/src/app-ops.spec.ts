import pino from 'pino';
import { AppOps } from './app-ops';
import { HttpInstruments } from './metrics/http-instruments';
import { OpsRuntime } from './ops-runtime';

const silent = pino({ level: 'silent' });
const config = {
  OPS_PORT: 0,
  OPS_HOST: '127.0.0.1',
  VIGIL_METRICS: 'on' as const,
  OPS_LOOP_STALL_MS: 60_000,
  OPS_STEP_MAX_MS: 300_000,
};

function sharedRuntime(metrics = true): OpsRuntime {
  return new OpsRuntime({
    metrics,
    processApp: 'all-in-one',
    liveness: { stallMs: 60_000, stepMaxMs: 300_000 },
    logger: silent,
  });
}

/** The exposition lines of one metric, without its HELP and TYPE. */
async function seriesOf(runtime: OpsRuntime, name: string): Promise<string[]> {
  const text = await runtime.metrics();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe('AppOps', () => {
  it('labels every series with its app, in one registry shared by the apps of a process', async () => {
    const runtime = sharedRuntime();
    const indexer = AppOps.create('indexer', config, silent, runtime);
    const notifier = AppOps.create('notifier', config, silent, runtime);
    indexer.consumer('vigil-indexer').consumed('detections.events.v1', 2, 5);
    notifier.consumer('vigil-notifier').consumed('notifications.commands.v1', 0, 3);
    expect(await seriesOf(runtime, 'vigil_consumer_records_total')).toEqual([
      'vigil_consumer_records_total{app="indexer",group="vigil-indexer",topic="detections.events.v1",partition="2"} 5',
      'vigil_consumer_records_total{app="notifier",group="vigil-notifier",topic="notifications.commands.v1",partition="0"} 3',
    ]);
    // Node.js defaults once, for the whole process.
    expect(await seriesOf(runtime, 'vigil_process_cpu_seconds_total')).toEqual([
      expect.stringMatching(/^vigil_process_cpu_seconds_total\{app="all-in-one"\} /),
    ]);
  });

  it('starts the dead letters of a partition at zero in every reason class', async () => {
    const runtime = sharedRuntime();
    const consumer = AppOps.create('indexer', config, silent, runtime).consumer('g');
    consumer.consumed('t', 0, 10);
    consumer.deadLettered('t', 0, 'schema', 2);
    expect(await seriesOf(runtime, 'vigil_consumer_dead_letters_total')).toEqual([
      'vigil_consumer_dead_letters_total{app="indexer",group="g",topic="t",partition="0",reason="decode"} 0',
      'vigil_consumer_dead_letters_total{app="indexer",group="g",topic="t",partition="0",reason="schema"} 2',
      'vigil_consumer_dead_letters_total{app="indexer",group="g",topic="t",partition="0",reason="validation"} 0',
      'vigil_consumer_dead_letters_total{app="indexer",group="g",topic="t",partition="0",reason="rejected"} 0',
    ]);
  });

  it('times the processor steps in seconds and counts decisions by mode and channel', async () => {
    const runtime = sharedRuntime();
    const processor = AppOps.create('stream-processor', config, silent, runtime).processor('g');
    processor.batchCommitted({ decodeMs: 4, processMs: 30, commitMs: 120 });
    processor.decided('threshold', 'webhook', 2);
    processor.transactionAborted();
    expect(await seriesOf(runtime, 'vigil_processor_batch_duration_seconds_sum')).toEqual([
      'vigil_processor_batch_duration_seconds_sum{app="stream-processor",step="decode"} 0.004',
      'vigil_processor_batch_duration_seconds_sum{app="stream-processor",step="process"} 0.03',
      'vigil_processor_batch_duration_seconds_sum{app="stream-processor",step="commit"} 0.12',
    ]);
    expect(await seriesOf(runtime, 'vigil_processor_decisions_total')).toContain(
      'vigil_processor_decisions_total{app="stream-processor",mode="threshold",channel="webhook"} 2',
    );
    expect(await seriesOf(runtime, 'vigil_processor_transactions_aborted_total')).toEqual([
      'vigil_processor_transactions_aborted_total{app="stream-processor"} 1',
    ]);
  });

  it('reads in-memory gauges at scrape time, and drops them when the app stops', async () => {
    const runtime = sharedRuntime();
    const ops = AppOps.create('stream-processor', config, silent, runtime);
    let held = 3;
    ops.onStop(ops.processor('g').trackDetectionsInMemory(() => held));
    expect(await seriesOf(runtime, 'vigil_processor_detections_in_memory')).toEqual([
      'vigil_processor_detections_in_memory{app="stream-processor"} 3',
    ]);
    held = 7;
    expect(await seriesOf(runtime, 'vigil_processor_detections_in_memory')).toEqual([
      'vigil_processor_detections_in_memory{app="stream-processor"} 7',
    ]);
    await ops.stop();
    expect(await seriesOf(runtime, 'vigil_processor_detections_in_memory')).toEqual([]);
  });

  it('updates no instrument when metrics are off, but still watches the loops', async () => {
    const runtime = sharedRuntime(false);
    const ops = AppOps.create('notifier', config, silent, runtime);
    const consumer = ops.consumer('g');
    consumer.consumed('t', 0, 10);
    ops.notifier().attempted('webhook', 'success', 0.1);
    expect((await runtime.metrics()).split('\n').filter((l) => /^vigil_/.test(l))).toEqual([]);
    expect(runtime.liveness.report().alive).toBe(true);
  });

  it('counts a 429 as rate limited on its route', async () => {
    const runtime = sharedRuntime();
    const http = new HttpInstruments(runtime.catalogue, 'api', true);
    http.answered('/api-key/v1/events', 'POST', 429, 0.002);
    expect(await seriesOf(runtime, 'vigil_http_rate_limited_total')).toEqual([
      'vigil_http_rate_limited_total{app="api",route="/api-key/v1/events"} 1',
    ]);
  });
});
