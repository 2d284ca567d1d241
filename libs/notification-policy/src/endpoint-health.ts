/**
 * Endpoint health (issue #20 item 4): when a provider that keeps failing is disabled. Pure: the
 * clock is passed in. The notifier keeps each provider's counters (failingSince, deadInARow) as
 * attempts are recorded and asks `healthVerdict` on each sweep.
 */

/** When to give up on a provider; either rule disables it. */
export interface EndpointHealthRules {
  /** Every attempt failed for at least this long (ms); 0 turns the rule off. */
  failingForMs: number;
  /** This many dead deliveries in a row, no success between; 0 turns the rule off. */
  deadInARow: number;
}

/** Three days (as Svix does), or twenty notifications in a row that died after every retry. */
export const DEFAULT_ENDPOINT_HEALTH_RULES: EndpointHealthRules = {
  failingForMs: 3 * 24 * 60 * 60 * 1000,
  deadInARow: 20,
};

/** How a provider's deliveries have gone since its last success (or since it was enabled). */
export interface EndpointHealth {
  /** The first failed attempt after the last success; null when the latest attempt succeeded. */
  failingSince: Date | null;
  /** Deliveries that died after their last retry since the last success. */
  deadInARow: number;
}

export const HEALTHY: EndpointHealth = { failingSince: null, deadInARow: 0 };

export type HealthVerdict =
  | { disable: false }
  | { disable: true; rule: 'failing_for'; failingSince: Date }
  | { disable: true; rule: 'dead_in_a_row'; deadInARow: number };

/** Whether a provider with this health is to be disabled at `now`. */
export function healthVerdict(
  health: EndpointHealth,
  now: Date,
  rules: EndpointHealthRules,
): HealthVerdict {
  if (
    rules.failingForMs > 0 &&
    health.failingSince !== null &&
    now.getTime() - health.failingSince.getTime() >= rules.failingForMs
  ) {
    return { disable: true, rule: 'failing_for', failingSince: health.failingSince };
  }
  if (rules.deadInARow > 0 && health.deadInARow >= rules.deadInARow) {
    return { disable: true, rule: 'dead_in_a_row', deadInARow: health.deadInARow };
  }
  return { disable: false };
}

/** The reason a disabled provider shows, in one sentence. */
export function describeHealthVerdict(verdict: Extract<HealthVerdict, { disable: true }>): string {
  if (verdict.rule === 'failing_for') {
    return `Every attempt has failed since ${verdict.failingSince.toISOString()}.`;
  }
  return `${verdict.deadInARow} deliveries in a row died after their last retry.`;
}

/** One recorded attempt of a delivery to a provider, as health counts it. */
export interface HealthOutcome {
  at: Date;
  /** `delivered`, failed with a retry to come, or failed for good. */
  result: 'delivered' | 'retry' | 'dead';
}

/**
 * What a batch of attempts to one provider changes, in a form the store applies to the counters
 * it has (several notifier instances record batches for the same provider concurrently, so the
 * change is stated against the stored value, not computed from a read of it):
 * - `reset`: a success in the batch: the counters restart from what came after the last one;
 * - `failingSince`: the first failure (after that success, if any);
 * - `dead`: the dead deliveries (after that success, if any), added to the stored count when
 *   there was no success.
 */
export interface HealthChange {
  reset: boolean;
  failingSince: Date | null;
  dead: number;
}

export function healthChangeOf(outcomes: readonly HealthOutcome[]): HealthChange {
  const ordered = [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime());
  let lastSuccess = -1;
  ordered.forEach((outcome, index) => {
    if (outcome.result === 'delivered') lastSuccess = index;
  });
  const after = ordered.slice(lastSuccess + 1);
  return {
    reset: lastSuccess >= 0,
    failingSince: after.length > 0 ? after[0].at : null,
    dead: after.filter((outcome) => outcome.result === 'dead').length,
  };
}

/** The counters after a change: what the store's UPDATE computes, stated once for its tests. */
export function applyHealthChange(health: EndpointHealth, change: HealthChange): EndpointHealth {
  if (change.reset) return { failingSince: change.failingSince, deadInARow: change.dead };
  return {
    failingSince: health.failingSince ?? change.failingSince,
    deadInARow: health.deadInARow + change.dead,
  };
}
