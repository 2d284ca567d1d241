import type { DetectionEventRecord } from '@vigil/contracts';
import type { DetectionEvent } from '@vigil/notification-policy';

/** A record of `detections.events.v1` as the decision engine takes it. */
export function toDetectionEvent(record: DetectionEventRecord): DetectionEvent {
  return {
    id: record.id,
    detectionId: record.detection_id,
    detectionName: record.detection_name,
    personName: record.employee_name,
    personEmail: record.employee_email,
    description: record.description ?? '',
    timestamp: record.happened,
    riskScore: record.risk_score,
    source: record.source,
  };
}
