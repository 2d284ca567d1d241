import type {
  DestinationFieldError,
  DestinationValidation,
} from '../validation/destination-validation';
import {
  PAGERDUTY_SEVERITIES,
  RISK_SCORE_MAX,
  RISK_SCORE_MIN,
  type PagerDutySeverity,
  type SeverityBand,
  type SeverityMapping,
} from './severity-mapping';

export const MAX_SEVERITY_BANDS = 20;

const SEVERITY_LIST = PAGERDUTY_SEVERITIES.join(', ');

function isSeverity(value: unknown): value is PagerDutySeverity {
  return (PAGERDUTY_SEVERITIES as readonly unknown[]).includes(value);
}

/**
 * A severity mapping from a form: bands listed from the lowest scores up, the first starting at
 * 0, the last ending at 10, each starting where the one before ends, so that every score has
 * exactly one severity; and the severity of an unscored notification. Every problem is
 * reported, each on the field it is about, and says which scores it leaves without a severity
 * or with two.
 */
export function validateSeverityMapping(
  input: unknown,
  field = 'severityMapping',
): DestinationValidation<SeverityMapping> {
  const errors: DestinationFieldError[] = [];
  const fail = (path: string, message: string) => errors.push({ field: path, message });
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    fail(field, 'must be a list of score bands and the severity of unscored notifications');
    return { ok: false, errors };
  }
  const raw = input as { bands?: unknown; unscored?: unknown };
  if (!isSeverity(raw.unscored)) {
    fail(`${field}.unscored`, `must be one of ${SEVERITY_LIST}`);
  }
  const bands = readBands(raw.bands, `${field}.bands`, fail);
  if (bands) checkCoverage(bands, `${field}.bands`, fail);
  return errors.length === 0 && bands
    ? { ok: true, value: { bands, unscored: raw.unscored as PagerDutySeverity } }
    : { ok: false, errors };
}

function readBands(
  input: unknown,
  field: string,
  fail: (field: string, message: string) => void,
): SeverityBand[] | null {
  if (!Array.isArray(input) || input.length === 0) {
    fail(
      field,
      `must list at least one band of scores from ${RISK_SCORE_MIN} to ${RISK_SCORE_MAX}`,
    );
    return null;
  }
  if (input.length > MAX_SEVERITY_BANDS) {
    fail(field, `must list at most ${MAX_SEVERITY_BANDS} bands, not ${input.length}`);
    return null;
  }
  const bands: SeverityBand[] = [];
  let ok = true;
  (input as unknown[]).forEach((item, i) => {
    const path = `${field}[${i}]`;
    const band = (item ?? {}) as Partial<Record<keyof SeverityBand, unknown>>;
    const score = (key: 'from' | 'to'): number | null => {
      const value = band[key];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        fail(`${path}.${key}`, `must be a number from ${RISK_SCORE_MIN} to ${RISK_SCORE_MAX}`);
        return null;
      }
      if (value < RISK_SCORE_MIN || value > RISK_SCORE_MAX) {
        fail(`${path}.${key}`, `must be from ${RISK_SCORE_MIN} to ${RISK_SCORE_MAX}, not ${value}`);
        return null;
      }
      return value;
    };
    const from = score('from');
    const to = score('to');
    if (!isSeverity(band.severity)) {
      fail(`${path}.severity`, `must be one of ${SEVERITY_LIST}`);
      ok = false;
    }
    if (from === null || to === null) {
      ok = false;
    } else if (to <= from) {
      fail(`${path}.to`, `must be above where band ${i + 1} starts (${from}), not ${to}`);
      ok = false;
    } else if (ok) {
      bands.push({ from, to, severity: band.severity as PagerDutySeverity });
    }
  });
  return ok ? bands : null;
}

function checkCoverage(
  bands: readonly SeverityBand[],
  field: string,
  fail: (field: string, message: string) => void,
): void {
  for (let i = 1; i < bands.length; i++) {
    if (bands[i].from < bands[i - 1].from) {
      fail(field, 'must be listed from the lowest scores to the highest');
      return;
    }
  }
  const first = bands[0];
  const last = bands[bands.length - 1];
  if (first.from !== RISK_SCORE_MIN) {
    fail(
      `${field}[0].from`,
      `must be ${RISK_SCORE_MIN}: scores from ${RISK_SCORE_MIN} to ${first.from} have no severity`,
    );
  }
  for (let i = 1; i < bands.length; i++) {
    const previous = bands[i - 1];
    const band = bands[i];
    if (band.from > previous.to) {
      fail(
        `${field}[${i}].from`,
        `must be ${previous.to}, where band ${i} ends: scores from ${previous.to} to ${band.from} have no severity`,
      );
    } else if (band.from < previous.to) {
      fail(
        `${field}[${i}].from`,
        `must be ${previous.to}, where band ${i} ends: scores from ${band.from} to ${Math.min(previous.to, band.to)} would have two severities`,
      );
    }
  }
  if (last.to !== RISK_SCORE_MAX) {
    fail(
      `${field}[${bands.length - 1}].to`,
      `must be ${RISK_SCORE_MAX}: scores from ${last.to} to ${RISK_SCORE_MAX} have no severity`,
    );
  }
}
