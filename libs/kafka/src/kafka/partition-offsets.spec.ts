import {
  nextOffset,
  offsetsToCommit,
  partitionLags,
  reachedEnd,
  restoreTargets,
} from './partition-offsets';

describe('nextOffset', () => {
  it('commits the offset after the last record handled', () => {
    expect(nextOffset('0')).toBe('1');
    expect(nextOffset('41')).toBe('42');
  });

  it('stays exact beyond 2^53', () => {
    expect(nextOffset('9007199254740993')).toBe('9007199254740994');
  });
});

describe('offsetsToCommit', () => {
  it('groups partitions by topic and commits the next offset of each', () => {
    expect(
      offsetsToCommit([
        { topic: 'events', partition: 2, lastOffset: '9' },
        { topic: 'events', partition: 0, lastOffset: '3' },
        { topic: 'reports', partition: 1, lastOffset: '0' },
      ]),
    ).toEqual([
      {
        topic: 'events',
        partitions: [
          { partition: 0, offset: '4' },
          { partition: 2, offset: '10' },
        ],
      },
      { topic: 'reports', partitions: [{ partition: 1, offset: '1' }] },
    ]);
  });

  it('keeps the furthest offset when a partition appears twice', () => {
    expect(
      offsetsToCommit([
        { topic: 'events', partition: 0, lastOffset: '12' },
        { topic: 'events', partition: 0, lastOffset: '7' },
      ]),
    ).toEqual([{ topic: 'events', partitions: [{ partition: 0, offset: '13' }] }]);
  });

  it('commits nothing when nothing was handled', () => {
    expect(offsetsToCommit([])).toEqual([]);
  });
});

describe('restoreTargets', () => {
  const offsets = [
    { partition: 0, high: '0', low: '0' },
    { partition: 1, high: '25', low: '0' },
    { partition: 2, high: '30', low: '30' },
    { partition: 3, high: '8', low: '2' },
  ];

  it('reads only the requested partitions that hold records, up to their end offset', () => {
    expect(restoreTargets(offsets, [0, 1, 2, 3])).toEqual(
      new Map([
        [1, '25'],
        [3, '8'],
      ]),
    );
  });

  it('ignores partitions that were not requested', () => {
    expect(restoreTargets(offsets, [3])).toEqual(new Map([[3, '8']]));
  });
});

describe('reachedEnd', () => {
  it('is complete once the record before the end offset was read', () => {
    expect(reachedEnd('24', '25')).toBe(true);
    expect(reachedEnd('30', '25')).toBe(true);
  });

  it('is not complete before that, nor before anything was read', () => {
    expect(reachedEnd('23', '25')).toBe(false);
    expect(reachedEnd(undefined, '25')).toBe(false);
  });
});

describe('partitionLags', () => {
  const ends = [
    { partition: 1, high: '120', low: '0' },
    { partition: 0, high: '50', low: '10' },
    { partition: 2, high: '7', low: '7' },
  ];

  it('is the end offset less the committed offset, per partition', () => {
    expect(
      partitionLags(ends, [
        { partition: 0, offset: '45' },
        { partition: 1, offset: '120' },
        { partition: 2, offset: '7' },
      ]),
    ).toEqual([
      { partition: 0, lag: 5 },
      { partition: 1, lag: 0 },
      { partition: 2, lag: 0 },
    ]);
  });

  it('counts from the first stored record when the group never committed or fell behind retention', () => {
    expect(
      partitionLags(ends, [
        { partition: 0, offset: '3' },
        { partition: 1, offset: '-1' },
      ]),
    ).toEqual([
      { partition: 0, lag: 40 },
      { partition: 1, lag: 120 },
      { partition: 2, lag: 0 },
    ]);
  });
});
