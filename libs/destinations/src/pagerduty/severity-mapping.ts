export const PAGERDUTY_SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export type PagerDutySeverity = (typeof PAGERDUTY_SEVERITIES)[number];

/** Risk scores run from 0 to 10 (decimals allowed). */
export const RISK_SCORE_MIN = 0;
export const RISK_SCORE_MAX = 10;

/** Scores from `from` (included) to `to` (excluded; the last band includes 10). */
export interface SeverityBand {
  from: number;
  to: number;
  severity: PagerDutySeverity;
}

/**
 * How a notification's highest risk score becomes a PagerDuty severity: bands in ascending
 * order covering 0 to 10 with no gap or overlap (see validateSeverityMapping), and the severity
 * of a notification with no score.
 */
export interface SeverityMapping {
  bands: SeverityBand[];
  unscored: PagerDutySeverity;
}

export const DEFAULT_SEVERITY_MAPPING: SeverityMapping = {
  bands: [
    { from: 0, to: 4, severity: 'info' },
    { from: 4, to: 7, severity: 'warning' },
    { from: 7, to: 9, severity: 'error' },
    { from: 9, to: 10, severity: 'critical' },
  ],
  unscored: 'warning',
};

/**
 * The severity of a risk score: scores outside 0..10 count as the nearest end. A mapping that
 * covers no band for the score (one that skipped validation) falls back to the default mapping.
 */
export function severityFor(score: number | null, mapping: SeverityMapping): PagerDutySeverity {
  if (score === null || Number.isNaN(score)) return mapping.unscored;
  const clamped = Math.min(RISK_SCORE_MAX, Math.max(RISK_SCORE_MIN, score));
  return (
    bandSeverity(clamped, mapping.bands) ??
    bandSeverity(clamped, DEFAULT_SEVERITY_MAPPING.bands) ??
    'critical'
  );
}

function bandSeverity(
  score: number,
  bands: readonly SeverityBand[],
): PagerDutySeverity | undefined {
  const last = (band: SeverityBand) => band.to === RISK_SCORE_MAX && score === RISK_SCORE_MAX;
  return bands.find((band) => band.from <= score && (score < band.to || last(band)))?.severity;
}
