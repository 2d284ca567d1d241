export interface TargetConcurrencyLimitsOptions {
  /** Where every target starts, and where an idle one returns to. */
  readonly initial: number;
  /** The most one target may hold, however well it answers. */
  readonly max: number;
  /** An answer slower than this counts as a sign of overload, like a failure. */
  readonly slowMs: number;
}

/** One attempt's result as far as the limit of its target is concerned. */
export interface AttemptSignal {
  readonly ok: boolean;
  readonly latencyMs: number;
}

/**
 * How many deliveries each target (webhook provider or email recipient) may have in flight,
 * adjusted by additive increase and multiplicative decrease: a target that answers fast while
 * using its limit gets one more slot per answer, a failure or a slow answer halves its limit.
 * A healthy receiver under a burst thus takes many slots, while endpoints that time out, answer
 * 5xx or crawl fall to one slot each and cannot starve the others. Pure and synchronous.
 */
export class TargetConcurrencyLimits {
  private readonly limits = new Map<string, number>();

  constructor(private readonly options: TargetConcurrencyLimitsOptions) {
    const { initial, max, slowMs } = options;
    if (!Number.isInteger(initial) || initial < 1) throw new RangeError('initial must be >= 1');
    if (!Number.isInteger(max) || max < initial) throw new RangeError('max must be >= initial');
    if (!(slowMs > 0)) throw new RangeError('slowMs must be positive');
  }

  limitOf(target: string): number {
    return this.limits.get(target) ?? this.options.initial;
  }

  /**
   * Adjusts the target's limit after one attempt. `inUse` is what the target held when the
   * attempt ended, itself included: a target far below its limit shows nothing about whether a
   * higher one would be safe, so it does not grow.
   */
  record(target: string, signal: AttemptSignal, inUse: number): void {
    const current = this.limitOf(target);
    let next = current;
    if (!signal.ok || signal.latencyMs > this.options.slowMs) {
      next = Math.max(1, Math.floor(current / 2));
    } else if (2 * inUse >= current) {
      next = Math.min(this.options.max, current + 1);
    }
    if (next === this.options.initial) this.limits.delete(target);
    else this.limits.set(target, next);
  }

  /** Targets whose limit differs from the initial one (the others need no entry). */
  get size(): number {
    return this.limits.size;
  }

  /** The limit of a target not seen before (or back to normal). */
  get initial(): number {
    return this.options.initial;
  }

  /** The targets whose limit differs from the initial one. */
  adjustedTargets(): IterableIterator<string> {
    return this.limits.keys();
  }
}
