import {
  COMPRESS_FROM_BYTES,
  DEFAULT_TOPIC_BUDGET_BYTES,
  MAX_RECORDS_PER_TOPIC_REQUEST,
  chunkBySize,
  worthCompressing,
} from './output-chunks';

const record = (topic: string, bytes: number) => ({ topic, key: 'k', value: Buffer.alloc(bytes) });

describe('chunkBySize', () => {
  it('keeps a topic of the default limit under 1 MB per request', () => {
    const records = Array.from({ length: 10 }, () => record('dlq', 200_000));
    const chunks = chunkBySize(records);
    expect(chunks.map((c) => c.length)).toEqual([4, 4, 2]);
    for (const chunk of chunks) {
      const bytes = chunk.reduce((n, r) => n + r.value.length, 0);
      expect(bytes).toBeLessThanOrEqual(DEFAULT_TOPIC_BUDGET_BYTES);
    }
  });

  it('gives a topic created with a larger limit half of it per request', () => {
    const records = Array.from({ length: 100 }, () => record('commands', 100_000));
    const chunks = chunkBySize(records, new Map([['commands', 16 * 1024 * 1024]]));
    expect(chunks).toHaveLength(2);
    expect(chunks.flat()).toEqual(records);
  });

  it('counts each topic of a request against its own budget', () => {
    const limits = new Map([['commands', 16 * 1024 * 1024]]);
    const records = [
      record('commands', 2_000_000),
      record('dlq', 600_000),
      record('commands', 2_000_000),
      record('dlq', 600_000),
    ];
    expect(chunkBySize(records, limits)).toEqual([records.slice(0, 3), records.slice(3)]);
  });

  it('puts at most MAX_RECORDS_PER_TOPIC_REQUEST records of a topic in a request', () => {
    const limits = new Map([['commands', 16 * 1024 * 1024]]);
    const records = Array.from({ length: 2_500 }, (_, i) =>
      record(i % 2 === 0 ? 'commands' : 'state', 10),
    );
    const chunks = chunkBySize(records, limits);
    expect(chunks.map((c) => c.length)).toEqual([2_000, 500]);
    expect(chunks.flat()).toEqual(records);
    for (const chunk of chunks) {
      for (const topic of ['commands', 'state']) {
        const count = chunk.filter((r) => r.topic === topic).length;
        expect(count).toBeLessThanOrEqual(MAX_RECORDS_PER_TOPIC_REQUEST);
      }
    }
  });

  it("counts keys given as bytes and the headers' names and values", () => {
    const letter = {
      topic: 'dlq',
      key: Buffer.alloc(100_000),
      value: Buffer.alloc(100_000),
      headers: {
        reason: 'r'.repeat(100_000),
        'original-topic': ['t'.repeat(50_000), Buffer.alloc(50_000)],
      },
    };
    expect(chunkBySize([letter, letter, letter]).map((c) => c.length)).toEqual([2, 1]);
  });

  it('sends a record larger than the budget in a request of its own', () => {
    const records = [record('dlq', 10), record('dlq', 2_000_000), record('dlq', 10)];
    expect(chunkBySize(records).map((c) => c.length)).toEqual([1, 1, 1]);
  });
});

describe('worthCompressing', () => {
  it('leaves a request of a few small records uncompressed', () => {
    expect(worthCompressing([record('commands', 1_500), record('states', 2_000)])).toBe(false);
    expect(worthCompressing([])).toBe(false);
  });

  it('compresses a request from COMPRESS_FROM_BYTES, framing counted', () => {
    expect(worthCompressing([record('states', COMPRESS_FROM_BYTES)])).toBe(true);
    const justUnder = COMPRESS_FROM_BYTES - 2 * (1 + 128) - 1;
    expect(worthCompressing([record('a', justUnder - 1_000), record('b', 1_000)])).toBe(false);
    expect(worthCompressing([record('a', justUnder - 999), record('b', 1_000)])).toBe(true);
  });
});
