import type { DetectionEventRecord } from '@vigil/contracts';

/** Event `n` of a bench run, over `detections` detections and seven users, as ingest writes it. */
export function benchEventRecord(
  runId: string,
  n: number,
  detections: number,
): DetectionEventRecord {
  return {
    id: `evt-${runId}-${n}`,
    detection_id: `det-${n % detections}`,
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: `user${n % 7}@example.com`,
    employee_name: `User ${n % 7}`,
    asset_name: 'okta',
    happened: Date.now() - 3_600_000 + n,
    risk_score: 5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: null,
  };
}
