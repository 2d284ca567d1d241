import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4's RequestQueue re-arms a timer after every check of its pending requests, even
 * with nothing pending and no throttle: `throttledUntil` starts at -1, so the delay is negative,
 * node runs it after 1 ms, and every broker connection spins a 1 ms timer loop for its whole
 * life (tulios/kafkajs#1556, #1704; the fixes are open upstream, the project unmaintained). An
 * idle Vigil process woke about 2,900 times a second for it; on a machine where a wake-up is
 * dear that was most of its CPU, and every alert waited behind it.
 *
 * The replacement schedules a check only when one can do something: requests pending (at the
 * end of the throttle, or kafkajs's own 10 ms while the in-flight limit holds them) or a
 * throttle still to end. A response or a timed-out request checks the queue itself, as before.
 */
const PATCHED_VERSION = '2.2.4';
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

interface RequestQueueState {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  pending: unknown[];
  checkPendingRequests(): void;
}

let applied = false;

/** Replaces RequestQueue.scheduleCheckPendingRequests once per process; throws on another kafkajs. */
export function stopRequestQueueSpin(): void {
  if (applied) return;
  const load = createRequire(__filename);
  const { version } = load('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_VERSION) {
    // Another version may have fixed it, or changed the queue: look again before carrying this.
    throw new Error(
      `stopRequestQueueSpin was written for kafkajs ${PATCHED_VERSION}, found ${version}`,
    );
  }
  const RequestQueue = load('kafkajs/src/network/requestQueue') as {
    prototype: { scheduleCheckPendingRequests(this: RequestQueueState): void };
  };
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests() {
    if (this.throttleCheckTimeoutId) return;
    const throttledFor = this.throttledUntil - Date.now();
    let delay: number;
    if (this.pending.length > 0) {
      delay = throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL;
    } else if (throttledFor > 0) {
      delay = throttledFor;
    } else {
      return;
    }
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
  applied = true;
}
