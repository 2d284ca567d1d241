export interface LivenessLimits {
  /** A running loop that has not beaten for this long is stuck. */
  readonly stallMs: number;
  /** ... and so is one whose oldest step has been running for this long. */
  readonly stepMaxMs: number;
}

export type LoopStatus = { alive: true } | { alive: false; reason: string };

/**
 * What a long-running loop (a consumer's fetch loop, a worker's poll loop) tells the liveness
 * probe. A loop beats whenever it asks for work, with or without finding any, and whenever a step
 * (a batch, a transaction, one attempt of it) ends; a step that never ends is a hung await. A
 * loop waiting on a server that is down keeps beating through its retries: that is readiness'
 * business, not liveness'.
 */
export class LoopHeartbeat {
  private lastBeatAt: number;
  private readonly steps = new Map<number, number>();
  private nextStep = 0;
  private running = true;

  constructor(
    readonly name: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.lastBeatAt = clock();
  }

  beat(): void {
    this.lastBeatAt = this.clock();
  }

  /** A step begins; call what it returns when it ends, however it ends. */
  stepStarted(): () => void {
    const id = this.nextStep++;
    this.steps.set(id, this.clock());
    return () => {
      if (this.steps.delete(id)) this.beat();
    };
  }

  /** The loop was stopped on purpose: it no longer has to beat. */
  stop(): void {
    this.running = false;
    this.steps.clear();
  }

  /** Started again after a stop. */
  restart(): void {
    this.running = true;
    this.beat();
  }

  status(limits: LivenessLimits): LoopStatus {
    if (!this.running) return { alive: true };
    const now = this.clock();
    let oldestStep = Infinity;
    for (const startedAt of this.steps.values()) oldestStep = Math.min(oldestStep, startedAt);
    if (now - oldestStep > limits.stepMaxMs) {
      return {
        alive: false,
        reason: `a step has been running for ${seconds(now - oldestStep)} (limit ${seconds(limits.stepMaxMs)})`,
      };
    }
    if (this.steps.size === 0 && now - this.lastBeatAt > limits.stallMs) {
      return {
        alive: false,
        reason: `no progress for ${seconds(now - this.lastBeatAt)} (limit ${seconds(limits.stallMs)})`,
      };
    }
    return { alive: true };
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
