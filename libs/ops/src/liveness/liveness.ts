import { LoopHeartbeat, type LivenessLimits } from './loop-heartbeat';

export interface LivenessReport {
  alive: boolean;
  /** The loops that are stuck, and why. */
  stuck: { app: string; loop: string; reason: string }[];
}

/**
 * The loops of a process, for /livez. A process whose loops all beat (or that has none: an HTTP
 * app answering the probe proves its event loop turns) is alive; one stuck loop makes it not,
 * so an orchestrator restarts it.
 */
export class Liveness {
  private readonly loops = new Map<LoopHeartbeat, string>();

  constructor(
    private readonly limits: LivenessLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A loop of `app` to watch until `forget` is called. */
  watch(app: string, name: string): LoopHeartbeat {
    const heartbeat = new LoopHeartbeat(name, this.clock);
    this.loops.set(heartbeat, app);
    return heartbeat;
  }

  forget(heartbeat: LoopHeartbeat): void {
    this.loops.delete(heartbeat);
  }

  report(): LivenessReport {
    const stuck: LivenessReport['stuck'] = [];
    for (const [heartbeat, app] of this.loops) {
      const status = heartbeat.status(this.limits);
      if (!status.alive) stuck.push({ app, loop: heartbeat.name, reason: status.reason });
    }
    return { alive: stuck.length === 0, stuck };
  }
}
