interface WindowIndex {
  /** The committed window this set mirrors (compared by identity: windows are never mutated). */
  window: readonly string[];
  ids: Set<string>;
}

/**
 * Sets of the ids of detections' committed de-duplication windows, so a recalculation looks its
 * events up instead of scanning a window of up to 10,000 ids: with full windows the scan was
 * two thirds of the processor's time. A set follows its window from batch to batch in O(batch):
 * the ids a batch appends are added and those it pushes out deleted (ids are distinct within a
 * window). Small windows are scanned as before; the sets are bounded in total, the least
 * recently used dropped first, at about 30 bytes per id on top of the window itself.
 */
export class WindowIndexCache {
  /** In least recently used order (a Map keeps insertion order; a use re-inserts). */
  private readonly entries = new Map<string, WindowIndex>();
  private totalIds = 0;

  constructor(
    private readonly maxIds = 2_000_000,
    private readonly minWindow = 256,
  ) {}

  get size(): number {
    return this.totalIds;
  }

  /** The ids of a detection's committed `window`, or undefined when it is cheaper to scan it. */
  of(detectionId: string, window: readonly string[]): ReadonlySet<string> | undefined {
    if (window.length < this.minWindow) return undefined;
    let entry = this.entries.get(detectionId);
    if (entry) this.forget(detectionId);
    if (entry?.window !== window) entry = { window, ids: new Set(window) };
    this.entries.set(detectionId, entry);
    this.totalIds += entry.ids.size;
    this.evictBeyondBound(entry);
    return entry.ids;
  }

  /**
   * A detection's committed window went from `previous` to `next`: `added` ids appended, the
   * oldest dropped to keep the window's size.
   */
  advance(
    detectionId: string,
    previous: readonly string[],
    next: readonly string[],
    added: number,
  ): void {
    const entry = this.entries.get(detectionId);
    if (!entry || next === previous) return;
    if (entry.window !== previous) {
      this.forget(detectionId);
      return;
    }
    const kept = next.length - Math.min(added, next.length);
    const before = entry.ids.size;
    for (let i = 0; i < previous.length - kept; i++) entry.ids.delete(previous[i]);
    for (let i = kept; i < next.length; i++) entry.ids.add(next[i]);
    entry.window = next;
    this.totalIds += entry.ids.size - before;
    // A set that no longer matches its window would miss or invent duplicates: drop it, and the
    // next recalculation builds it again from the window.
    if (entry.ids.size !== next.length) this.forget(detectionId);
    else this.evictBeyondBound(entry);
  }

  /** Drops the least recently used sets until the total is within bound, `kept` excepted. */
  private evictBeyondBound(kept: WindowIndex): void {
    for (const [id, oldest] of this.entries) {
      if (this.totalIds <= this.maxIds) return;
      if (oldest !== kept) this.forget(id);
    }
  }

  forget(detectionId: string): void {
    const entry = this.entries.get(detectionId);
    if (!entry) return;
    this.entries.delete(detectionId);
    this.totalIds -= entry.ids.size;
  }
}
