import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  ftruncateSync,
} from 'node:fs';
import { join } from 'node:path';
import type { RecordHeaders } from '../port/log-record';
import type { TopicSpec } from '../port/topic-catalog';
import { decodeRecord, encodeFrame, encodeRecord, frameAt, type StoredRecord } from './log-frame';
import { partitionForKey } from './partition-for-key';

export interface PartitionedLogOptions {
  dataDir: string;
  /** A partition's active segment rolls past this size (default 64 MiB). */
  segmentBytes?: number;
  /** ... or once its first record is this old (default 1 day), so time retention can apply. */
  segmentMs?: number;
  /** Non-compacted topics drop whole segments older than this (default 7 days, Kafka's default). */
  retentionMs?: number;
  /** ... and their oldest segments while a partition holds more than this (default 1 GiB). */
  retentionBytes?: number;
  /** fsync the segments and the commit journal at every write (default true). */
  fsync?: boolean;
  now?: () => number;
}

export interface RecordToAppend {
  topic: string;
  key: Buffer | string | null;
  value: Buffer | null;
  /** Explicit partition; otherwise murmur2 of the key (round robin for a null key). */
  partition?: number;
  headers?: RecordHeaders;
}

export interface OffsetToCommit {
  groupId: string;
  topic: string;
  partition: number;
  /** The next offset to read, as Kafka commits it. */
  offset: number;
}

interface Segment {
  base: number;
  path: string;
  fd: number;
  size: number;
  offsets: number[];
  positions: number[];
  firstTimestamp: number | null;
  lastTimestamp: number | null;
}

interface Partition {
  dir: string;
  segments: Segment[];
  next: number;
}

interface Topic {
  spec: TopicSpec;
  partitions: Partition[];
  roundRobin: number;
}

const SEGMENT_SUFFIX = '.seg';
const JOURNAL = 'commits.log';
const JOURNAL_ROTATE_BYTES = 1024 * 1024;

/**
 * The storage of the in-process log (DESIGN.md §8): topics of N partitions, each an ordered
 * list of append-only segment files named by their first offset, and one commit journal.
 *
 * Every write (a publish, a transaction, an offset commit) gets the next write number: its
 * records are appended to their partitions, then a journal entry "write n committed, with these
 * group offsets" is appended; both are fsynced before the call returns. On open, records of a
 * write after the last committed one, and any torn or corrupt tail, are cut off: a transaction
 * is all there or not at all, and what a write returned for survives a crash. Transactions
 * buffer their records in memory until commit, so readers only ever see committed data (read
 * committed comes for free) and an abort writes nothing.
 *
 * All file I/O is synchronous: a write is one uninterrupted step of the event loop, so no
 * reader in the process observes half of it.
 */
export class PartitionedLog {
  private readonly topics = new Map<string, Topic>();
  private readonly groupOffsets = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private journalFd = -1;
  private journalSize = 0;
  private lastWrite = 0;
  private closed = false;
  private readonly segmentBytes: number;
  private readonly segmentMs: number;
  private readonly retentionMs: number;
  private readonly retentionBytes: number;
  private readonly sync: boolean;
  private readonly now: () => number;

  private constructor(private readonly options: PartitionedLogOptions) {
    this.segmentBytes = options.segmentBytes ?? 64 * 1024 * 1024;
    this.segmentMs = options.segmentMs ?? 24 * 3600_000;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
    this.retentionBytes = options.retentionBytes ?? 1024 * 1024 * 1024;
    this.sync = options.fsync ?? true;
    this.now = options.now ?? Date.now;
  }

  static open(options: PartitionedLogOptions): PartitionedLog {
    const log = new PartitionedLog(options);
    log.load();
    return log;
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  /** Creates the topic if missing; an existing topic keeps its partition count. */
  ensureTopic(spec: TopicSpec): boolean {
    this.assertOpen();
    if (this.topics.has(spec.name)) return false;
    const dir = this.topicDir(spec.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'topic.json'), JSON.stringify(spec));
    const topic: Topic = { spec, partitions: [], roundRobin: 0 };
    for (let p = 0; p < spec.partitions; p++) topic.partitions.push(this.openPartition(dir, p));
    this.topics.set(spec.name, topic);
    this.syncDir(dir);
    this.syncDir(this.options.dataDir);
    return true;
  }

  hasTopic(name: string): boolean {
    return this.topics.has(name);
  }

  partitionCount(topic: string): number {
    return this.topic(topic).partitions.length;
  }

  /** Offset of the first record still stored (retention and compaction move it forward). */
  startOffset(topic: string, partition: number): number {
    const p = this.partition(topic, partition);
    const first = p.segments.find((s) => s.offsets.length > 0);
    return first ? first.offsets[0] : p.next;
  }

  /** The offset the next record will get (Kafka's high watermark). */
  endOffset(topic: string, partition: number): number {
    return this.partition(topic, partition).next;
  }

  committedOffset(groupId: string, topic: string, partition: number): number | undefined {
    return this.groupOffsets.get(offsetKey(groupId, topic, partition));
  }

  /**
   * One atomic, durable write: the records and the group offsets become visible together.
   * `check` runs first and may throw to refuse the write (a fenced transaction).
   */
  write(records: readonly RecordToAppend[], offsets: readonly OffsetToCommit[] = []): void {
    this.assertOpen();
    const write = this.lastWrite + 1;
    const timestamp = this.now();
    const touched = new Set<Segment>();
    const rolled = new Map<Partition, Topic>();
    for (const record of records) {
      const topic = this.topic(record.topic);
      const index = this.partitionIndexOf(topic, record);
      const partition = topic.partitions[index];
      const segment = this.activeSegment(partition, timestamp, () => rolled.set(partition, topic));
      const key = record.key === null ? null : Buffer.from(record.key);
      const frame = encodeRecord({
        write,
        offset: partition.next,
        timestamp,
        key,
        value: record.value,
        headers: record.headers,
      });
      writeSync(segment.fd, frame, 0, frame.length, segment.size);
      segment.offsets.push(partition.next);
      segment.positions.push(segment.size);
      segment.size += frame.length;
      segment.firstTimestamp ??= timestamp;
      segment.lastTimestamp = timestamp;
      partition.next += 1;
      touched.add(segment);
    }
    if (this.sync) for (const segment of touched) fsyncSync(segment.fd);
    this.appendJournal({
      write,
      offsets: offsets.map((o) => [o.groupId, o.topic, o.partition, o.offset]),
    });
    this.lastWrite = write;
    for (const o of offsets)
      this.groupOffsets.set(offsetKey(o.groupId, o.topic, o.partition), o.offset);
    // Only once the write is committed: compaction rewrites what it reads as committed.
    for (const [partition, topic] of rolled) {
      const index = topic.partitions.indexOf(partition);
      if (topic.spec.compacted) this.compactIfWorthIt(topic, index);
      else this.dropExpiredSegments(partition, timestamp);
    }
    this.notify();
  }

  /** Up to `maxRecords` records of a partition from `fromOffset` (or the first after it). */
  read(topic: string, partition: number, fromOffset: number, maxRecords: number): StoredRecord[] {
    const p = this.partition(topic, partition);
    const records: StoredRecord[] = [];
    for (const segment of p.segments) {
      if (records.length >= maxRecords) break;
      const count = segment.offsets.length;
      if (count === 0 || segment.offsets[count - 1] < fromOffset) continue;
      let first = lowerBound(segment.offsets, fromOffset);
      const last = Math.min(count, first + (maxRecords - records.length));
      const start = segment.positions[first];
      const end = last < count ? segment.positions[last] : segment.size;
      const bytes = Buffer.alloc(end - start);
      readSync(segment.fd, bytes, 0, bytes.length, start);
      for (; first < last; first++) {
        const frame = frameAt(bytes, segment.positions[first] - start);
        if (!frame) throw new Error(`corrupt record in ${segment.path}`);
        records.push(decodeRecord(frame.body));
      }
    }
    return records;
  }

  /** The latest value of every key of a compacted partition (tombstones delete). */
  latestValues(topic: string, partition: number): Map<string, Buffer> {
    const values = new Map<string, Buffer>();
    let offset = this.startOffset(topic, partition);
    const end = this.endOffset(topic, partition);
    while (offset < end) {
      const records = this.read(topic, partition, offset, 1000);
      if (records.length === 0) break;
      for (const record of records) {
        if (!record.key) continue;
        const key = record.key.toString('utf8');
        if (record.value === null) values.delete(key);
        else values.set(key, record.value);
      }
      offset = records[records.length - 1].offset + 1;
    }
    return values;
  }

  /** Resolves at the next write, or after `timeoutMs`. */
  waitForWrite(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Drops the segments of non-compacted topics past retention; compacts compacted ones. */
  enforceRetention(): void {
    this.assertOpen();
    const now = this.now();
    for (const topic of this.topics.values()) {
      for (let index = 0; index < topic.partitions.length; index++) {
        if (topic.spec.compacted) this.compactIfWorthIt(topic, index);
        else this.dropExpiredSegments(topic.partitions[index], now);
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const topic of this.topics.values())
      for (const partition of topic.partitions)
        for (const segment of partition.segments) closeSync(segment.fd);
    closeSync(this.journalFd);
    this.notify();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private load(): void {
    const { dataDir } = this.options;
    mkdirSync(join(dataDir, 'topics'), { recursive: true });
    this.loadJournal();
    for (const entry of readdirSync(join(dataDir, 'topics'))) {
      const dir = join(dataDir, 'topics', entry);
      if (!existsSync(join(dir, 'topic.json'))) continue;
      const spec = JSON.parse(readFileSync(join(dir, 'topic.json'), 'utf8')) as TopicSpec;
      const topic: Topic = { spec, partitions: [], roundRobin: 0 };
      for (let p = 0; p < spec.partitions; p++) topic.partitions.push(this.openPartition(dir, p));
      this.topics.set(spec.name, topic);
    }
    this.enforceRetention();
  }

  /** Replays the journal, then rewrites it as one entry holding every group offset. */
  private loadJournal(): void {
    const path = join(this.options.dataDir, JOURNAL);
    if (existsSync(path)) {
      const bytes = readFileSync(path);
      let position = 0;
      for (let frame = frameAt(bytes, position); frame; frame = frameAt(bytes, position)) {
        const entry = JSON.parse(frame.body.toString('utf8')) as JournalEntry;
        this.lastWrite = Math.max(this.lastWrite, entry.write);
        for (const [groupId, topic, partition, offset] of entry.offsets)
          this.groupOffsets.set(offsetKey(groupId, topic, partition), offset);
        position = frame.end;
      }
    }
    this.rewriteJournal();
  }

  private rewriteJournal(): void {
    const path = join(this.options.dataDir, JOURNAL);
    const snapshot: JournalEntry = {
      write: this.lastWrite,
      offsets: [...this.groupOffsets].map(([key, offset]) => {
        const [groupId, topic, partition] = JSON.parse(key) as [string, string, number];
        return [groupId, topic, partition, offset];
      }),
    };
    const frame = encodeFrame(Buffer.from(JSON.stringify(snapshot)));
    writeFileSync(`${path}.tmp`, frame);
    const tmp = openSync(`${path}.tmp`, 'r');
    fsyncSync(tmp);
    closeSync(tmp);
    if (this.journalFd >= 0) closeSync(this.journalFd);
    renameSync(`${path}.tmp`, path);
    this.syncDir(this.options.dataDir);
    this.journalFd = openSync(path, 'a');
    this.journalSize = frame.length;
  }

  private appendJournal(entry: JournalEntry): void {
    const frame = encodeFrame(Buffer.from(JSON.stringify(entry)));
    writeSync(this.journalFd, frame);
    if (this.sync) fsyncSync(this.journalFd);
    this.journalSize += frame.length;
    if (this.journalSize > JOURNAL_ROTATE_BYTES) {
      this.lastWrite = entry.write;
      this.rewriteJournal();
    }
  }

  /** Opens a partition, finishing or undoing an interrupted compaction and cutting off uncommitted or torn records. */
  private openPartition(topicDir: string, index: number): Partition {
    const dir = join(topicDir, String(index));
    const compacting = `${dir}.compacting`;
    const old = `${dir}.old`;
    if (!existsSync(dir) && existsSync(compacting)) renameSync(compacting, dir);
    rmSync(compacting, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const bases = readdirSync(dir)
      .filter((name) => name.endsWith(SEGMENT_SUFFIX))
      .map((name) => Number(name.slice(0, -SEGMENT_SUFFIX.length)))
      .sort((a, b) => a - b);
    const partition: Partition = { dir, segments: [], next: 0 };
    let cut = false;
    for (const base of bases) {
      const path = join(dir, segmentName(base));
      if (cut) {
        rmSync(path, { force: true });
        continue;
      }
      const segment = this.scanSegment(path, base);
      if (segment.cut) cut = true;
      partition.segments.push(segment.segment);
      const { offsets } = segment.segment;
      partition.next = Math.max(base, offsets.length > 0 ? offsets[offsets.length - 1] + 1 : base);
    }
    if (partition.segments.length === 0) partition.segments.push(this.createSegment(dir, 0));
    return partition;
  }

  private scanSegment(path: string, base: number): { segment: Segment; cut: boolean } {
    const bytes = readFileSync(path);
    const segment: Segment = {
      base,
      path,
      fd: -1,
      size: 0,
      offsets: [],
      positions: [],
      firstTimestamp: null,
      lastTimestamp: null,
    };
    let position = 0;
    for (let frame = frameAt(bytes, position); frame; frame = frameAt(bytes, position)) {
      const record = decodeRecord(frame.body);
      if (record.write > this.lastWrite) break;
      segment.offsets.push(record.offset);
      segment.positions.push(position);
      segment.firstTimestamp ??= record.timestamp;
      segment.lastTimestamp = record.timestamp;
      position = frame.end;
    }
    segment.fd = openSync(path, 'r+');
    const cut = position < bytes.length;
    if (cut) {
      ftruncateSync(segment.fd, position);
      fsyncSync(segment.fd);
    }
    segment.size = position;
    return { segment, cut };
  }

  private createSegment(dir: string, base: number): Segment {
    const path = join(dir, segmentName(base));
    const fd = openSync(path, 'a+');
    this.syncDir(dir);
    return {
      base,
      path,
      fd,
      size: fstatSync(fd).size,
      offsets: [],
      positions: [],
      firstTimestamp: null,
      lastTimestamp: null,
    };
  }

  private activeSegment(partition: Partition, now: number, onRoll: () => void): Segment {
    const active = partition.segments[partition.segments.length - 1];
    const full = active.size >= this.segmentBytes;
    const old = active.firstTimestamp !== null && now - active.firstTimestamp >= this.segmentMs;
    if (active.offsets.length === 0 || (!full && !old)) return active;
    if (this.sync) fsyncSync(active.fd);
    const next = this.createSegment(partition.dir, partition.next);
    partition.segments.push(next);
    onRoll();
    return next;
  }

  private dropExpiredSegments(partition: Partition, now: number): void {
    let total = partition.segments.reduce((sum, s) => sum + s.size, 0);
    while (partition.segments.length > 1) {
      const oldest = partition.segments[0];
      const expired =
        oldest.lastTimestamp !== null && now - oldest.lastTimestamp > this.retentionMs;
      if (!expired && total <= this.retentionBytes && oldest.size > 0) break;
      closeSync(oldest.fd);
      rmSync(oldest.path, { force: true });
      partition.segments.shift();
      total -= oldest.size;
    }
  }

  /**
   * Rewrites a compacted partition to the latest record of each live key once at least half
   * of it is superseded. The result is built in a sibling folder and swapped in by renames, so
   * a crash leaves either the old or the new partition (openPartition finishes the swap).
   */
  private compactIfWorthIt(topic: Topic, index: number): void {
    const partition = topic.partitions[index];
    const stored = partition.segments.reduce((n, s) => n + s.offsets.length, 0);
    if (stored < 64) return;
    const latest = new Map<string, StoredRecord>();
    const records = this.read(topic.spec.name, index, 0, Number.MAX_SAFE_INTEGER);
    for (const record of records) latest.set(record.key?.toString('base64') ?? '', record);
    const kept = [...latest.values()]
      .filter((r) => r.value !== null)
      .sort((a, b) => a.offset - b.offset);
    if (kept.length * 2 > stored) return;

    const compacting = `${partition.dir}.compacting`;
    rmSync(compacting, { recursive: true, force: true });
    mkdirSync(compacting);
    if (kept.length > 0) {
      const frames = kept.map((r) => encodeRecord({ ...r, write: 0 }));
      const path = join(compacting, segmentName(kept[0].offset));
      const fd = openSync(path, 'w');
      writeSync(fd, Buffer.concat(frames));
      fsyncSync(fd);
      closeSync(fd);
    }
    closeSync(openSync(join(compacting, segmentName(partition.next)), 'w'));
    this.syncDir(compacting);
    for (const segment of partition.segments) closeSync(segment.fd);
    renameSync(partition.dir, `${partition.dir}.old`);
    renameSync(compacting, partition.dir);
    this.syncDir(join(partition.dir, '..'));
    rmSync(`${partition.dir}.old`, { recursive: true, force: true });
    topic.partitions[index] = this.openPartition(join(partition.dir, '..'), index);
  }

  private partitionIndexOf(topic: Topic, record: RecordToAppend): number {
    const count = topic.partitions.length;
    if (record.partition !== undefined) {
      if (record.partition < 0 || record.partition >= count)
        throw new Error(`topic ${topic.spec.name} has no partition ${record.partition}`);
      return record.partition;
    }
    if (record.key === null) return topic.roundRobin++ % count;
    return partitionForKey(record.key, count);
  }

  private topic(name: string): Topic {
    const topic = this.topics.get(name);
    if (!topic) throw new Error(`unknown topic ${name}`);
    return topic;
  }

  private partition(topic: string, partition: number): Partition {
    const p = this.topic(topic).partitions[partition];
    if (!p) throw new Error(`topic ${topic} has no partition ${partition}`);
    return p;
  }

  private topicDir(name: string): string {
    return join(this.options.dataDir, 'topics', encodeURIComponent(name));
  }

  private syncDir(dir: string): void {
    if (!this.sync) return;
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the in-process log is closed');
  }
}

interface JournalEntry {
  write: number;
  offsets: [string, string, number, number][];
}

function offsetKey(groupId: string, topic: string, partition: number): string {
  return JSON.stringify([groupId, topic, partition]);
}

function segmentName(base: number): string {
  return `${String(base).padStart(20, '0')}${SEGMENT_SUFFIX}`;
}

/** Index of the first element ≥ value in an ascending array. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
