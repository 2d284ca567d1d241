/**
 * What the metrics cost, measured in the same run as the benchmark they belong to: the same work
 * with VIGIL_METRICS on and off, in ABBA blocks (off, on, on, off) so a machine that warms up or
 * grows busier during the run favours neither side.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { AppOps, OpsRuntime } from '@vigil/ops';
import { median, medianAndSpread, passCount } from './bench-passes';

export type MetricsSetting = 'on' | 'off';

/** The cost of the metrics, in percent of the figure without them. */
function costPercent(withMetrics: number, without: number, higherIsBetter: boolean): number {
  return higherIsBetter
    ? ((without - withMetrics) / without) * 100
    : ((withMetrics - without) / without) * 100;
}

/** One pass: its figure and, when known, the CPU time the measured code spent per unit of work. */
export interface MetricsPass {
  figure: number;
  cpuMicrosPerUnit?: number;
}

/** ABBA blocks: each block is off, on, on, off. `BENCH_METRICS_BLOCKS` sets how many (default 2). */
function passOrder(): MetricsSetting[] {
  const blocks = Math.max(1, Number(process.env.BENCH_METRICS_BLOCKS ?? 2));
  return Array.from({ length: blocks }, () => ['off', 'on', 'on', 'off'] as const).flat();
}

/**
 * Runs `measure` in ABBA blocks and prints the median of each side and the cost, of the figure
 * and, when the passes report it, of the CPU time per unit: CPU time is what the metrics add
 * directly, and it varies far less than wall-clock throughput on a shared machine.
 * `measure` does the whole work with the setting it is given.
 */
export async function throughputWithAndWithoutMetrics(
  label: string,
  unit: string,
  measure: (metrics: MetricsSetting) => Promise<number | MetricsPass>,
): Promise<{ on: number; off: number; costPercent: number; cpuCostPercent?: number }> {
  const passes: Record<MetricsSetting, MetricsPass[]> = { on: [], off: [] };
  for (const setting of passOrder()) {
    const pass = await measure(setting);
    passes[setting].push(typeof pass === 'number' ? { figure: pass } : pass);
  }
  const figures = (setting: MetricsSetting) => passes[setting].map((p) => p.figure);
  const on = median(figures('on'));
  const off = median(figures('off'));
  const cost = costPercent(on, off, true);
  console.log(
    `${label} metrics on ${on.toFixed(0)} ${unit} (${figures('on')
      .map((f) => f.toFixed(0))
      .join(', ')}), ` +
      `off ${off.toFixed(0)} ${unit} (${figures('off')
        .map((f) => f.toFixed(0))
        .join(', ')}): ` +
      `metrics cost ${cost.toFixed(1)}% of the median (target < 3%)`,
  );
  const cpu = (setting: MetricsSetting) =>
    passes[setting].flatMap((p) => (p.cpuMicrosPerUnit === undefined ? [] : [p.cpuMicrosPerUnit]));
  if (cpu('on').length === 0 || cpu('off').length === 0) {
    return { on, off, costPercent: cost };
  }
  const cpuOn = median(cpu('on'));
  const cpuOff = median(cpu('off'));
  const cpuCost = costPercent(cpuOn, cpuOff, false);
  console.log(
    `${label} CPU per unit, metrics on ${cpuOn.toFixed(2)} µs (${cpu('on')
      .map((f) => f.toFixed(2))
      .join(', ')}), ` +
      `off ${cpuOff.toFixed(2)} µs (${cpu('off')
        .map((f) => f.toFixed(2))
        .join(', ')}): ` +
      `metrics cost ${cpuCost.toFixed(1)}% of the median CPU (target < 3%)`,
  );
  return { on, off, costPercent: cost, cpuCostPercent: cpuCost };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Latency of the same requests to two instances of an app, one with metrics and one without,
 * interleaved request by request (which goes first alternates), in `BENCH_PASSES` passes of
 * `iterations` each after one warm-up: the median and spread of each pass's p50 and p99, and of
 * the cost. A p50 difference of a few hundredths of a millisecond is within one pass's noise; the
 * spread shows how far.
 */
export async function latencyWithAndWithoutMetrics(
  label: string,
  iterations: number,
  warmup: number,
  send: (metrics: MetricsSetting, i: number) => Promise<void>,
): Promise<{ p50CostPercent: number; p99CostPercent: number }> {
  const interleaved = async (count: number, offset: number) => {
    const times: Record<MetricsSetting, number[]> = { on: [], off: [] };
    for (let i = offset; i < offset + count; i++) {
      const order: MetricsSetting[] = i % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const setting of order) {
        const started = performance.now();
        await send(setting, i);
        times[setting].push(performance.now() - started);
      }
    }
    return times;
  };
  await interleaved(warmup, 0);
  const percentiles = () => ({ p50: [] as number[], p99: [] as number[] });
  const figures: Record<MetricsSetting, { p50: number[]; p99: number[] }> = {
    on: percentiles(),
    off: percentiles(),
  };
  for (let pass = 0; pass < passCount(); pass++) {
    const times = await interleaved(iterations, warmup + pass * iterations);
    for (const setting of ['on', 'off'] as const) {
      const sorted = times[setting].sort((a, b) => a - b);
      figures[setting].p50.push(percentile(sorted, 50));
      figures[setting].p99.push(percentile(sorted, 99));
    }
  }
  const costs = (p: 'p50' | 'p99') =>
    figures.on[p].map((on, pass) => costPercent(on, figures.off[p][pass], false));
  const p50Costs = costs('p50');
  const p99Costs = costs('p99');
  const ms = (values: number[]) => `${medianAndSpread(values, 2)} ms`;
  console.log(
    `${label} metrics on p50 ${ms(figures.on.p50)} p99 ${ms(figures.on.p99)} | ` +
      `off p50 ${ms(figures.off.p50)} p99 ${ms(figures.off.p99)} | ` +
      `metrics cost p50 ${medianAndSpread(p50Costs, 1)}% p99 ${medianAndSpread(p99Costs, 1)}% ` +
      `(target < 3%; ${passCount()} passes of ${iterations})`,
  );
  return { p50CostPercent: median(p50Costs), p99CostPercent: median(p99Costs) };
}

/**
 * What the processor's instruments cost by themselves, timed apart from everything else: the
 * calls one batch makes (consumed, batch committed with its three steps, decisions in each
 * channel, heartbeat), and one scrape of the whole registry. Divided by the measured batch time
 * and scrape interval, this bounds the metrics' share even where a whole-run comparison cannot
 * tell a 3% cost from the machine's noise.
 */
export async function processorInstrumentCost(
  partitions: number,
): Promise<{ microsPerBatch: number; millisPerScrape: number }> {
  const logger = pino({ level: 'silent' });
  const runtime = new OpsRuntime({
    metrics: true,
    processApp: 'stream-processor',
    liveness: { stallMs: 60_000, stepMaxMs: 300_000 },
    logger,
  });
  const ops = AppOps.create(
    'stream-processor',
    {
      OPS_PORT: 0,
      OPS_HOST: '127.0.0.1',
      VIGIL_METRICS: 'on',
      OPS_LOOP_STALL_MS: 60_000,
      OPS_STEP_MAX_MS: 300_000,
    },
    logger,
    runtime,
  );
  const instruments = ops.processor('bench');
  const batch = (i: number) => {
    for (let p = 0; p < partitions; p++) instruments.consumed('events', p, 500 + (i % 7));
    instruments.batchCommitted({ decodeMs: 40 + (i % 5), processMs: 120, commitMs: 80 });
    instruments.decided('immediate', 'webhook', 3);
    instruments.decided('immediate', 'email', 2);
    instruments.decided('batch', 'webhook', 1);
    instruments.decided('batch', 'email', 1);
  };
  const batches = 100_000;
  for (let i = 0; i < 10_000; i++) batch(i);
  const started = performance.now();
  for (let i = 0; i < batches; i++) batch(i);
  const microsPerBatch = ((performance.now() - started) * 1000) / batches;
  await runtime.metrics();
  const scrapes = 50;
  const scrapeStarted = performance.now();
  for (let i = 0; i < scrapes; i++) await runtime.metrics();
  return { microsPerBatch, millisPerScrape: (performance.now() - scrapeStarted) / scrapes };
}
