import { z } from 'zod';

/** A detection event as it travels on `detections.events.v1` (happened in epoch millis). */
export interface DetectionEventRecord {
  id: string;
  detection_id: string;
  detection_name: string;
  issue_type: string;
  employee_email: string;
  employee_name: string;
  asset_name: string;
  happened: number;
  risk_score: number;
  source: string;
  high_prevalence: boolean;
  allowlisted: boolean;
  description: string | null;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** Events older than 2000 or more than a day in the future are connector bugs, not data. */
const EARLIEST = Date.UTC(2000, 0, 1);
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

const text = (max: number) => z.string().trim().min(1).max(max);

const happened = z
  .union([
    z.string().regex(ISO_UTC, 'an ISO 8601 UTC timestamp such as 2024-05-01T12:00:00.000Z'),
    z.number().int(),
  ])
  .transform((value, ctx) => {
    const millis = typeof value === 'number' ? value : Date.parse(value);
    if (!Number.isFinite(millis) || (typeof value === 'string' && !isRealDate(value))) {
      ctx.addIssue({ code: 'custom', message: 'not a real calendar date and time' });
      return z.NEVER;
    }
    return millis;
  });

function isRealDate(iso: string): boolean {
  const date = new Date(iso);
  return date.toISOString().slice(0, 19) === iso.slice(0, 19);
}

/** What ingest and the decoders accept; unknown fields are rejected so typos surface. */
export const detectionEventInput = z
  .object({
    id: text(200),
    detection_id: text(200),
    detection_name: text(500),
    issue_type: text(200),
    employee_email: z.email().max(320),
    employee_name: text(300),
    asset_name: text(500),
    happened,
    risk_score: z.number().finite().min(0).max(1_000_000),
    source: text(200),
    high_prevalence: z.boolean(),
    allowlisted: z.boolean(),
    description: z.string().max(2000).nullable().optional(),
  })
  .strict();

export type DetectionEventInput = z.input<typeof detectionEventInput>;

export function describeEvent(issueType: string, assetName: string): string {
  return `${issueType.replace(/_/g, ' ')} on ${assetName}`;
}

/**
 * Validates one record (from JSON or from Avro) into its canonical form: trimmed strings,
 * email lowercased, a description derived when absent.
 */
export function parseDetectionEvent(
  input: unknown,
  now: number = Date.now(),
):
  | { ok: true; value: DetectionEventRecord }
  | { ok: false; errors: { path: string; message: string }[] } {
  const result = detectionEventInput.safeParse(input);
  if (!result.success) {
    return {
      ok: false,
      errors: result.error.issues.map((issue) => ({
        path: issue.path.join('.') || '(record)',
        message: issue.message,
      })),
    };
  }
  const v = result.data;
  const happenedMs = v.happened;
  if (happenedMs < EARLIEST || happenedMs > now + FUTURE_SLACK_MS) {
    return {
      ok: false,
      errors: [{ path: 'happened', message: 'must be between 2000-01-01 and one day from now' }],
    };
  }
  return {
    ok: true,
    value: {
      ...v,
      employee_email: v.employee_email.toLowerCase(),
      happened: happenedMs,
      description: v.description?.trim() || describeEvent(v.issue_type, v.asset_name),
    },
  };
}
