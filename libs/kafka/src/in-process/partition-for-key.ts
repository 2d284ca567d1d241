const SEED = 0x9747b28cn;
const M = 0x5bd1e995n;

const int64 = (x: bigint) => BigInt.asIntN(64, x);
const int32 = (x: bigint) => Number(BigInt.asIntN(32, x));

/**
 * Murmur2 exactly as kafkajs's default partitioner computes it (64-bit intermediate products
 * truncated to 32 bits at the shifts), so a key lands on the same partition whether Kafka or
 * the in-process log stores it.
 */
export function murmur2(key: Buffer | string): number {
  const data = Buffer.isBuffer(key) ? key : Buffer.from(key);
  const length = data.length;
  let h = SEED ^ BigInt(length);
  const length4 = Math.floor(length / 4);
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = BigInt(
      (data[i4] & 0xff) +
        ((data[i4 + 1] & 0xff) << 8) +
        ((data[i4 + 2] & 0xff) << 16) +
        ((data[i4 + 3] & 0xff) << 24),
    );
    k = int64(k * M);
    k = k ^ BigInt(int32(k) >>> 24);
    k = int64(k * M);
    h = int64(h * M);
    h = h ^ k;
  }
  const tail = length & ~3;
  const rest = length % 4;
  if (rest === 3) h = h ^ BigInt((data[tail + 2] & 0xff) << 16);
  if (rest >= 2) h = h ^ BigInt((data[tail + 1] & 0xff) << 8);
  if (rest >= 1) {
    h = h ^ BigInt(data[tail] & 0xff);
    h = int64(h * M);
  }
  h = h ^ BigInt(int32(h) >>> 13);
  h = int64(h * M);
  h = h ^ BigInt(int32(h) >>> 15);
  return int32(h);
}

/** The partition of a keyed record among `partitions`: kafkajs's default partitioner. */
export function partitionForKey(key: Buffer | string, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
