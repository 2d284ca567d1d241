/**
 * The Kafka Streams baseline of the processor bench: the application of
 * bench/peers/kafka-streams (the same per-detection work as Vigil's processor, exactly-once v2,
 * one stream thread), built with Maven when its jar is missing or older than its sources, run
 * over the bench's input topic with a fresh application id per pass, and removed afterwards
 * (its output, changelog and any other `<application id>-…` topic, and its consumer group).
 *
 * A pass is timed like the processor: from the first record the application handed to its
 * processor to the commit of the transaction that held the output of the last one.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { Kafka } from 'kafkajs';

const PEER_DIR = join(repositoryRoot(), 'bench', 'peers', 'kafka-streams');
const JAR = join(PEER_DIR, 'target', 'kafka-streams-peer.jar');
const CLASSPATH_FILE = join(PEER_DIR, 'target', 'classpath.txt');
const MAIN_CLASS = 'dev.vigil.bench.kafkastreams.KafkaStreamsPeer';

/**
 * The peer emits and commits once per this interval. Vigil's processor commits one transaction
 * per fetched batch and partition, which at the bench's backlog is one every 0.5 to 2 s per
 * partition (4 for 100,000 events on 1 partition, 6 on 6), and runs its timers every second. At
 * Streams' own default under exactly-once, 100 ms, the peer wrote five times the processor's
 * output records for the same input: a test of commit overhead rather than of the same work. One
 * second keeps the outputs comparable and is the processor's own timer interval.
 */
export const PEER_COMMIT_INTERVAL_MS = 1_000;
/** Vigil's PROCESSOR_DEDUP_WINDOW default. */
export const PEER_DEDUP_WINDOW = 10_000;

/** The counters the application prints (Progress.line() in the Java sources). */
export interface PeerProgress {
  processed: number;
  emitted: number;
  /** Input records whose output a committed transaction holds. */
  committed: number;
  committedAt: number;
  firstRecordAt: number;
  commits: number;
  recordsWritten: number;
  duplicates: number;
  rejected: number;
}

export interface PeerRun {
  brokers: string;
  registryUrl: string;
  inputTopic: string;
  outputTopic: string;
  applicationId: string;
  /** A fresh temporary folder when unset, removed on stop. */
  stateDir?: string;
  commitIntervalMs?: number;
  dedupWindow?: number;
}

export interface RunningPeer {
  progress(): PeerProgress;
  /** Resolves with the first progress that satisfies `done`; rejects if the application exits. */
  waitFor(done: (progress: PeerProgress) => boolean, timeoutMs: number): Promise<PeerProgress>;
  stop(): Promise<void>;
}

export interface PeerPass {
  eventsPerSecond: number;
  seconds: number;
  commits: number;
  recordsWritten: number;
}

/** VIGIL_BENCH_PEERS=0 skips the peer baselines. */
export function peersEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.VIGIL_BENCH_PEERS !== '0';
}

/** Builds the application when its jar is missing or older than pom.xml or a source file. */
export async function buildKafkaStreamsPeer(): Promise<void> {
  if (!needsBuild()) return;
  const mvn = (offline: boolean) =>
    promisify(execFile)(
      'mvn',
      ['-B', '-q', '-Dstyle.color=never', ...(offline ? ['-o'] : []), '-f', 'pom.xml', 'package'],
      { cwd: PEER_DIR, maxBuffer: 16 * 1024 * 1024 },
    );
  // Offline first: after the first build, everything it needs is in the local repository.
  await mvn(true).catch(() => mvn(false));
  if (needsBuild()) throw new Error(`Maven left no up-to-date ${JAR}`);
}

function needsBuild(): boolean {
  if (!existsSync(JAR) || !existsSync(CLASSPATH_FILE)) return true;
  const built = statSync(JAR).mtimeMs;
  return (
    newestModification(join(PEER_DIR, 'src')) > built ||
    statSync(join(PEER_DIR, 'pom.xml')).mtimeMs > built
  );
}

function newestModification(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs,
    );
  }
  return newest;
}

/** Starts the built application; its output topic must exist. */
export function startKafkaStreamsPeer(run: PeerRun): RunningPeer {
  const stateDir = run.stateDir ?? mkdtempSync(join(tmpdir(), 'vigil-kafka-streams-peer-'));
  const classpath = `${JAR}:${readFileSync(CLASSPATH_FILE, 'utf8').trim()}`;
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const child: ChildProcessWithoutNullStreams = spawn(
    java,
    [
      '-Xms256m',
      '-Xmx1g',
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      // e.g. -XX:StartFlightRecording=filename=peer.jfr,settings=profile to see where time goes
      ...(process.env.VIGIL_BENCH_PEER_JAVA_OPTS ?? '').split(' ').filter(Boolean),
      '-cp',
      classpath,
      MAIN_CLASS,
      ...['--bootstrap-servers', run.brokers],
      ...['--schema-registry', run.registryUrl],
      ...['--input-topic', run.inputTopic],
      ...['--output-topic', run.outputTopic],
      ...['--application-id', run.applicationId],
      ...['--state-dir', stateDir],
      ...['--commit-interval-ms', String(run.commitIntervalMs ?? PEER_COMMIT_INTERVAL_MS)],
      ...['--dedup-window', String(run.dedupWindow ?? PEER_DEDUP_WINDOW)],
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );

  let progress = parseProgress('');
  let exited: Error | null = null;
  const stderrTail: string[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('progress ')) {
      progress = parseProgress(line);
      notify();
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 40) stderrTail.shift();
  });
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = new Error(
        `Kafka Streams peer exited (${signal ?? `code ${code}`}):\n${stderrTail.join('\n')}`,
      );
      notify();
      resolve();
    }),
  );

  return {
    progress: () => progress,
    waitFor: (done, timeoutMs) =>
      new Promise<PeerProgress>((resolve, reject) => {
        const check = () => {
          if (done(progress)) finish(() => resolve(progress));
          else if (exited) finish(() => reject(exited!));
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(
                  `Kafka Streams peer: no progress after ${timeoutMs} ms: ${JSON.stringify(progress)}`,
                ),
              ),
            ),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      }),
    stop: async () => {
      // The application closes when its standard input does; a hung close is killed.
      if (!exited) {
        child.stdin.end();
        const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
        await exit;
        clearTimeout(killer);
      }
      if (!run.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A `progress key=value ...` line; zeros for what it lacks. */
export function parseProgress(line: string): PeerProgress {
  const fields = new Map(
    line
      .split(' ')
      .filter((pair) => pair.includes('='))
      .map((pair) => pair.split('=', 2) as [string, string]),
  );
  const n = (name: string) => Number(fields.get(name) ?? 0);
  return {
    processed: n('processed'),
    emitted: n('emitted'),
    committed: n('committed'),
    committedAt: n('committed_at'),
    firstRecordAt: n('first_record_at'),
    commits: n('commits'),
    recordsWritten: n('records_written'),
    duplicates: n('duplicates'),
    rejected: n('rejected'),
  };
}

/** Deletes the application's topics (`<application id>-…`: output, changelog) and its group. */
export async function deleteKafkaStreamsPeerData(
  kafka: Kafka,
  applicationId: string,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`));
    if (topics.length > 0) await admin.deleteTopics({ topics });
    await admin.deleteGroups([applicationId]).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

export async function createPeerOutputTopic(
  kafka: Kafka,
  topic: string,
  partitions: number,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }],
    });
  } finally {
    await admin.disconnect();
  }
}

export interface PeerPassOptions {
  brokers: string;
  registryUrl: string;
  inputTopic: string;
  partitions: number;
  /** Records in the input topic: the pass ends when a commit covers them all. */
  events: number;
  /** Prefix of the application id (the bench's topic prefix). */
  prefix: string;
  timeoutMs?: number;
}

/** One pass from the beginning of the input topic under a fresh application id. */
export async function measureKafkaStreamsPeerPass(
  kafka: Kafka,
  options: PeerPassOptions,
): Promise<PeerPass> {
  const applicationId = `${options.prefix}kafka-streams-peer-${randomUUID().slice(0, 8)}`;
  const outputTopic = `${applicationId}-updates`;
  try {
    await createPeerOutputTopic(kafka, outputTopic, options.partitions);
    const peer = startKafkaStreamsPeer({ ...options, outputTopic, applicationId });
    try {
      const done = await peer.waitFor(
        (p) => p.committed >= options.events,
        options.timeoutMs ?? 300_000,
      );
      const ms = Math.max(1, done.committedAt - done.firstRecordAt);
      return {
        eventsPerSecond: (options.events * 1000) / ms,
        seconds: ms / 1000,
        commits: done.commits,
        recordsWritten: done.recordsWritten,
      };
    } finally {
      await peer.stop();
    }
  } finally {
    await deleteKafkaStreamsPeerData(kafka, applicationId);
  }
}

/**
 * The bench's baseline line: three passes over the input topic, their median and spread, the
 * load average, and the ratio of Vigil's processor to the median.
 */
export async function reportKafkaStreamsPeer(
  kafka: Kafka,
  options: PeerPassOptions & { vigilEventsPerSecond: number },
  passes = 3,
): Promise<void> {
  if (!peersEnabled()) {
    console.log('  Kafka Streams peer: skipped (VIGIL_BENCH_PEERS=0)');
    return;
  }
  await buildKafkaStreamsPeer();
  const results: PeerPass[] = [];
  for (let i = 0; i < passes; i++) results.push(await measureKafkaStreamsPeerPass(kafka, options));
  const rates = results.map((r) => r.eventsPerSecond).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  const spread = (rates[rates.length - 1] - rates[0]) / median;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const written = results.map((r) => r.recordsWritten).join('/');
  const commits = results.map((r) => r.commits).join('/');
  console.log(
    `  Kafka Streams peer (exactly-once v2, 1 thread, commit every ${PEER_COMMIT_INTERVAL_MS} ms): ` +
      `median ${median.toFixed(0)} events/s of ${rates.map((r) => r.toFixed(0)).join(', ')} ` +
      `(spread ${(spread * 100).toFixed(0)}%), ${commits} commits, ${written} records written; ` +
      `load average ${load}`,
  );
  console.log(
    `${options.partitions} partition(s): processor ${options.vigilEventsPerSecond.toFixed(0)} events/s, ` +
      `Kafka Streams ${median.toFixed(0)} events/s, ratio ` +
      `${(options.vigilEventsPerSecond / median).toFixed(2)} (target >= 1.0)`,
  );
}

/**
 * The repository's root, found upwards from this file: it runs from bench/support through
 * ts-node and from dist/bench/support built, while the peer's sources stay in bench/peers.
 */
function repositoryRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'bench', 'peers', 'kafka-streams', 'pom.xml'))) return dir;
    if (dirname(dir) === dir) {
      throw new Error(`bench/peers/kafka-streams not found above ${__dirname}`);
    }
  }
}
