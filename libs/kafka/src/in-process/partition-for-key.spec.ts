import { randomBytes } from 'node:crypto';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { partitionForKey } from './partition-for-key';

const kafkajsPartitioner = Partitioners.DefaultPartitioner();
const metadata = (count: number): PartitionMetadata[] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));

describe('partitionForKey', () => {
  it.each([1, 3, 6, 12, 50])(
    'agrees with kafkajs default partitioner for many keys over %i partitions',
    (count) => {
      const partitionMetadata = metadata(count);
      const keys = [
        '',
        'a',
        'ab',
        'abc',
        'abcd',
        'détection-é',
        ...Array.from({ length: 3000 }, (_, i) => `detection-${i}`),
        ...Array.from({ length: 500 }, () =>
          randomBytes((1 + Math.random() * 40) | 0).toString('hex'),
        ),
      ];
      for (const key of keys) {
        const expected = kafkajsPartitioner({
          topic: 't',
          partitionMetadata,
          message: { key, value: null },
        });
        expect([key, partitionForKey(key, count)]).toEqual([key, expected]);
      }
    },
  );

  it('agrees on binary keys', () => {
    const partitionMetadata = metadata(7);
    for (let i = 0; i < 1000; i++) {
      const key = randomBytes(i % 37);
      const expected = kafkajsPartitioner({
        topic: 't',
        partitionMetadata,
        message: { key, value: null },
      });
      expect(partitionForKey(key, 7)).toBe(expected);
    }
  });
});
