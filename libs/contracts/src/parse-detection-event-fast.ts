import { regexes } from 'zod';
import { describeEvent, parseDetectionEvent, type DetectionEventRecord } from './detection-event';

/** Must match `detectionEventInput` and parseDetectionEvent's range check exactly. */
const EARLIEST = Date.UTC(2000, 0, 1);
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
const KNOWN_KEYS = new Set([
  'id',
  'detection_id',
  'detection_name',
  'issue_type',
  'employee_email',
  'employee_name',
  'asset_name',
  'happened',
  'risk_score',
  'source',
  'high_prevalence',
  'allowlisted',
  'description',
]);

/** Trimmed text of 1..max characters, or undefined when the value is anything else. */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= max ? trimmed : undefined;
}

/**
 * parseDetectionEvent for the records of a hot path (the stream processor parses every event
 * it reads): the usual, valid record — epoch-millis `happened`, as Avro carries it — is checked
 * by hand, an order of magnitude faster than the schema; anything else, valid or not, goes
 * through parseDetectionEvent, so results and error messages are the same.
 */
export function parseDetectionEventFast(
  input: unknown,
  now: number = Date.now(),
): ReturnType<typeof parseDetectionEvent> {
  const value = checked(input, now);
  return value ? { ok: true, value } : parseDetectionEvent(input, now);
}

function checked(input: unknown, now: number): DetectionEventRecord | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  if (Object.getPrototypeOf(input) !== Object.prototype) return undefined;
  for (const key of Object.keys(input)) if (!KNOWN_KEYS.has(key)) return undefined;
  const r = input as Record<string, unknown>;
  const id = text(r.id, 200);
  const detectionId = text(r.detection_id, 200);
  const detectionName = text(r.detection_name, 500);
  const issueType = text(r.issue_type, 200);
  const employeeName = text(r.employee_name, 300);
  const assetName = text(r.asset_name, 500);
  const source = text(r.source, 200);
  const email = r.employee_email;
  const { happened, risk_score: riskScore, description } = r;
  if (
    id === undefined ||
    detectionId === undefined ||
    detectionName === undefined ||
    issueType === undefined ||
    employeeName === undefined ||
    assetName === undefined ||
    source === undefined ||
    typeof email !== 'string' ||
    email.length > 320 ||
    !regexes.email.test(email) ||
    typeof happened !== 'number' ||
    !Number.isSafeInteger(happened) ||
    happened < EARLIEST ||
    happened > now + FUTURE_SLACK_MS ||
    typeof riskScore !== 'number' ||
    !Number.isFinite(riskScore) ||
    riskScore < 0 ||
    riskScore > 1_000_000 ||
    typeof r.high_prevalence !== 'boolean' ||
    typeof r.allowlisted !== 'boolean' ||
    !(
      description === undefined ||
      description === null ||
      (typeof description === 'string' && description.length <= 2000)
    )
  ) {
    return undefined;
  }
  return {
    id,
    detection_id: detectionId,
    detection_name: detectionName,
    issue_type: issueType,
    employee_email: email.toLowerCase(),
    employee_name: employeeName,
    asset_name: assetName,
    happened,
    risk_score: riskScore,
    source,
    high_prevalence: r.high_prevalence,
    allowlisted: r.allowlisted,
    description: description?.trim() || describeEvent(issueType, assetName),
  };
}
