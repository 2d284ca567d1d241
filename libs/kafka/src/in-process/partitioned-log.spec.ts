import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecord } from './log-frame';
import { partitionForKey } from './partition-for-key';
import { PartitionedLog, type PartitionedLogOptions } from './partitioned-log';

const events = { name: 'events', partitions: 3, compacted: false };
const state = { name: 'state', partitions: 2, compacted: true };
const value = (text: string) => Buffer.from(text);
const texts = (records: { value: Buffer | null }[]) => records.map((r) => r.value?.toString());

describe('PartitionedLog', () => {
  let dataDir: string;
  let log: PartitionedLog;
  const open = (options: Partial<PartitionedLogOptions> = {}) => {
    log = PartitionedLog.open({ dataDir, ...options });
    log.ensureTopic(events);
    log.ensureTopic(state);
    return log;
  };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-log-'));
  });
  afterEach(() => {
    if (!log.isClosed) log.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('puts a key on the partition kafkajs would, in order, with consecutive offsets', () => {
    open();
    for (let i = 0; i < 20; i++)
      log.write([{ topic: 'events', key: `d-${i % 4}`, value: value(`${i}`) }]);
    for (let partition = 0; partition < 3; partition++) {
      const records = log.read('events', partition, 0, 100);
      expect(records.map((r) => r.offset)).toEqual(records.map((_, i) => i));
      for (const record of records) {
        expect(partitionForKey(record.key!, 3)).toBe(partition);
      }
      const byKey = new Map<string, number[]>();
      for (const r of records)
        byKey.set(r.key!.toString(), [...(byKey.get(r.key!.toString()) ?? []), Number(r.value)]);
      for (const numbers of byKey.values())
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
    expect([0, 1, 2].reduce((n, p) => n + log.endOffset('events', p), 0)).toBe(20);
  });

  it('makes records and group offsets of one write visible together', () => {
    open();
    log.write(
      [
        { topic: 'events', key: 'a', value: value('out'), partition: 1 },
        { topic: 'state', key: 'a', value: value('s'), partition: 1 },
      ],
      [{ groupId: 'g', topic: 'events', partition: 1, offset: 7 }],
    );
    expect(texts(log.read('events', 1, 0, 10))).toEqual(['out']);
    expect(log.committedOffset('g', 'events', 1)).toBe(7);
    expect(log.latestValues('state', 1)).toEqual(new Map([['a', value('s')]]));
  });

  it('keeps records, headers and committed offsets across a restart', () => {
    open();
    log.write([
      { topic: 'events', key: 'k', value: value('v'), partition: 0, headers: { h: 'x' } },
    ]);
    log.write(
      [{ topic: 'events', key: null, value: null, partition: 0 }],
      [{ groupId: 'g', topic: 'events', partition: 0, offset: 1 }],
    );
    log.close();
    open();
    const records = log.read('events', 0, 0, 10);
    expect(texts(records)).toEqual(['v', undefined]);
    expect(records[0].headers).toEqual({ h: Buffer.from('x') });
    expect(log.committedOffset('g', 'events', 0)).toBe(1);
    log.write([{ topic: 'events', key: 'k', value: value('w'), partition: 0 }]);
    expect(log.read('events', 0, 2, 10).map((r) => r.offset)).toEqual([2]);
  });

  it('drops on open a torn tail and the records of a write that never committed', () => {
    open();
    log.write([{ topic: 'events', key: 'k', value: value('committed'), partition: 0 }]);
    log.close();
    const segmentDir = join(dataDir, 'topics', 'events', '0');
    const segment = join(segmentDir, readdirSync(segmentDir)[0]);
    // A crash between the records and the journal entry of write 2, then half a frame.
    const uncommitted = encodeRecord({
      write: 2,
      offset: 1,
      timestamp: 0,
      key: null,
      value: value('lost'),
    });
    appendFileSync(segment, uncommitted);
    appendFileSync(segment, uncommitted.subarray(0, 10));
    open();
    expect(texts(log.read('events', 0, 0, 10))).toEqual(['committed']);
    log.write([{ topic: 'events', key: 'k', value: value('next'), partition: 0 }]);
    log.close();
    open();
    expect(texts(log.read('events', 0, 0, 10))).toEqual(['committed', 'next']);
  });

  it('restores the latest value of each key, tombstones deleting, before and after compaction', () => {
    open();
    for (let round = 0; round < 50; round++) {
      log.write([
        { topic: 'state', key: 'a', value: value(`a${round}`), partition: 0 },
        { topic: 'state', key: 'b', value: value(`b${round}`), partition: 0 },
      ]);
    }
    log.write([{ topic: 'state', key: 'b', value: null, partition: 0 }]);
    const expected = new Map([['a', value('a49')]]);
    expect(log.latestValues('state', 0)).toEqual(expected);
    log.close();
    open();
    expect(log.latestValues('state', 0)).toEqual(expected);
    expect(log.startOffset('state', 0)).toBe(98);
    expect(log.endOffset('state', 0)).toBe(101);
    log.write([{ topic: 'state', key: 'c', value: value('c'), partition: 0 }]);
    expect(log.read('state', 0, 0, 10).map((r) => r.offset)).toEqual([98, 101]);
  });

  it('deletes old segments of event topics past retention, never the active one', () => {
    let now = 1_000_000;
    open({ now: () => now, segmentBytes: 200, retentionMs: 60_000, retentionBytes: 1_000 });
    for (let i = 0; i < 30; i++) {
      log.write([{ topic: 'events', key: 'k', value: Buffer.alloc(100, i), partition: 2 }]);
    }
    expect(log.startOffset('events', 2)).toBeGreaterThan(0);
    expect(log.endOffset('events', 2)).toBe(30);
    now += 120_000;
    log.enforceRetention();
    const start = log.startOffset('events', 2);
    expect(start).toBe(28);
    expect(log.read('events', 2, 0, 100).map((r) => r.offset)).toEqual([28, 29]);
    log.close();
    open({ now: () => now });
    expect(log.endOffset('events', 2)).toBe(30);
  });
});
