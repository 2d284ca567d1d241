/** Wording shared by the webhook payloads and the emails, so every channel says the same thing. */

const UNITS: readonly [ms: number, singular: string, plural: string][] = [
  [86_400_000, 'day', 'days'],
  [3_600_000, 'hour', 'hours'],
  [60_000, 'minute', 'minutes'],
];

const COUNT = new Intl.NumberFormat('en-US');

/**
 * A count with its noun in the right number: `quantity(1, 'minute')` is "1 minute",
 * `quantity(1440, 'minute')` "1,440 minutes". The plural is the singular with an "s" unless
 * given ("person", "people"). Every text built with a number goes through here, except the
 * SPEC title `{N} new events`, which SPEC.md §6.2 fixes as it is.
 */
export function quantity(count: number, singular: string, plural = `${singular}s`): string {
  return `${COUNT.format(count)} ${count === 1 ? singular : plural}`;
}

/**
 * An elapsed time in words, at most its two largest units: "2 hours 5 minutes", "3 days 1 hour",
 * "45 seconds". Negative spans (clock skew between machines) read as 0 seconds.
 */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms));
  if (total < 60_000) {
    const seconds = Math.floor(total / 1000);
    return quantity(seconds, 'second');
  }
  // The largest unit that fits and the one below it; a zero second unit is left out.
  const first = UNITS.findIndex(([unit]) => total >= unit);
  let rest = total;
  const parts: string[] = [];
  for (const [unit, singular, pluralForm] of UNITS.slice(first, first + 2)) {
    const count = Math.floor(rest / unit);
    rest -= count * unit;
    if (count > 0) parts.push(quantity(count, singular, pluralForm));
  }
  return parts.join(' ');
}

function trimSlash(appUrl: string): string {
  return appUrl.replace(/\/+$/, '');
}

/** {app_url}/u/detections/<id> (SPEC §6.2). */
export function detectionUrl(appUrl: string, detectionId: string): string {
  return `${trimSlash(appUrl)}/u/detections/${encodeURIComponent(detectionId)}`;
}

/** {app_url}/u/investigations/<id> (SPEC §6.3). */
export function investigationUrl(appUrl: string, investigationId: string): string {
  return `${trimSlash(appUrl)}/u/investigations/${encodeURIComponent(investigationId)}`;
}

const OUTCOME_LABELS: Record<string, string> = {
  confirmed_risk: 'Confirmed risk',
  no_risk: 'No risk',
};

/** A readable outcome; unknown values are shown as they are. */
export function outcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

export function riskScoreText(riskScore: number | null): string {
  return riskScore === null ? 'not available' : String(riskScore);
}
