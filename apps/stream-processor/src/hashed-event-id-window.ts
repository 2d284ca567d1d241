import { randomBytes } from 'node:crypto';
import type { SeenEventIds } from '@vigil/notification-policy';

/** Keys a process's hashes; never stored (windows are rebuilt from the changelog's ids). */
export interface EventIdHashSeed {
  readonly a: number;
  readonly b: number;
}

export function randomEventIdHashSeed(): EventIdHashSeed {
  const bytes = randomBytes(8);
  return { a: bytes.readUInt32LE(0), b: bytes.readUInt32LE(4) };
}

const MIN_RING = 4;
const MIN_SLOTS = 8;
/** Linear probing stays short below three quarters full and the table at 1.3-2.7 slots per id. */
const MAX_LOAD = 0.75;

/**
 * A detection's de-duplication window (its last `size` distinct event ids) kept as 64-bit keyed
 * hashes: about 21 bytes per id when full (a ring of the hashes in arrival order and an
 * open-addressing table over them), where the ids as strings cost about 95 with a set over them.
 * Two ids share a hash with a chance of about 2^-64 per pair; the seed is random per process, so
 * ids cannot be chosen to collide, and no hash outlives the process.
 *
 * Ids are appended only once the batch that counted them is committed: the window is the
 * committed one, as the state it belongs to.
 */
export class HashedEventIdWindow implements SeenEventIds {
  /** Hash pairs (low, high) in arrival order, `length` of them from `start`, wrapping. */
  private ring: Uint32Array;
  private start = 0;
  private count = 0;
  /** Hash pairs by slot; (0, 0) marks a free slot (a hash of (0, 0) is kept as (1, 0)). */
  private table: Uint32Array;
  private mask: number;

  constructor(
    private readonly size: number,
    private readonly seed: EventIdHashSeed,
  ) {
    this.ring = new Uint32Array(2 * Math.max(1, Math.min(size, MIN_RING)));
    this.table = new Uint32Array(2 * MIN_SLOTS);
    this.mask = MIN_SLOTS - 1;
  }

  get length(): number {
    return this.count;
  }

  /** Memory held by the arrays, in bytes. */
  get byteLength(): number {
    return this.ring.byteLength + this.table.byteLength;
  }

  has(id: string): boolean {
    this.hash(id);
    return this.find(hashLow, hashHigh) >= 0;
  }

  /**
   * Appends ids not in the window, in order, dropping the oldest beyond its size. An id already
   * in it (which the fold never appends) is not added twice.
   */
  append(ids: readonly string[]): void {
    if (this.size <= 0) return;
    for (const id of ids) {
      this.hash(id);
      const low = hashLow;
      const high = hashHigh;
      if (this.find(low, high) >= 0) continue;
      if (this.count === this.size) this.dropOldest();
      if (this.count === this.ring.length / 2) this.growRing();
      const at = 2 * ((this.start + this.count) % (this.ring.length / 2));
      this.ring[at] = low;
      this.ring[at + 1] = high;
      this.count++;
      if (this.count > (this.mask + 1) * MAX_LOAD) this.growTable();
      this.insert(low, high);
    }
  }

  private dropOldest(): void {
    const at = 2 * this.start;
    this.remove(this.ring[at], this.ring[at + 1]);
    this.start = (this.start + 1) % (this.ring.length / 2);
    this.count--;
  }

  private growRing(): void {
    const capacity = this.ring.length / 2;
    const next = new Uint32Array(2 * Math.min(this.size, capacity * 2));
    for (let i = 0; i < this.count; i++) {
      const from = 2 * ((this.start + i) % capacity);
      next[2 * i] = this.ring[from];
      next[2 * i + 1] = this.ring[from + 1];
    }
    this.ring = next;
    this.start = 0;
  }

  private growTable(): void {
    const old = this.table;
    const slots = 2 * (this.mask + 1);
    this.table = new Uint32Array(2 * slots);
    this.mask = slots - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] !== 0 || old[i + 1] !== 0) this.insert(old[i], old[i + 1]);
    }
  }

  private find(low: number, high: number): number {
    const { table, mask } = this;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const l = table[2 * slot];
      const h = table[2 * slot + 1];
      if (l === low && h === high) return slot;
      if (l === 0 && h === 0) return -1;
    }
  }

  private insert(low: number, high: number): void {
    const { table, mask } = this;
    let slot = low & mask;
    while (table[2 * slot] !== 0 || table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    table[2 * slot] = low;
    table[2 * slot + 1] = high;
  }

  /** Removes a hash, shifting back the entries after it that probed past it (no tombstones). */
  private remove(low: number, high: number): void {
    const { table, mask } = this;
    let hole = this.find(low, high);
    if (hole < 0) return;
    for (let next = (hole + 1) & mask; ; next = (next + 1) & mask) {
      const l = table[2 * next];
      const h = table[2 * next + 1];
      if (l === 0 && h === 0) break;
      const home = l & mask;
      // The entry at `next` may move into the hole unless its home lies after the hole, up to it.
      const staysPut = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (staysPut) continue;
      table[2 * hole] = l;
      table[2 * hole + 1] = h;
      hole = next;
    }
    table[2 * hole] = 0;
    table[2 * hole + 1] = 0;
  }

  /** Sets hashLow / hashHigh: two 32-bit multiply-xorshift lanes over the UTF-16 code units. */
  private hash(id: string): void {
    let h1 = 0xdeadbeef ^ this.seed.a;
    let h2 = 0x41c6ce57 ^ this.seed.b;
    for (let i = 0; i < id.length; i++) {
      const unit = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ unit, 2654435761);
      h2 = Math.imul(h2 ^ unit, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    hashLow = h1 >>> 0 || (h2 === 0 ? 1 : 0);
    hashHigh = h2 >>> 0;
  }
}

// The hash of the id being handled: two numbers without allocating a pair per id.
let hashLow = 0;
let hashHigh = 0;
