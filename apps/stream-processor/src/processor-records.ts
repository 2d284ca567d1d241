import {
  encodeNotificationCommand,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import type { OutputRecord } from '@vigil/kafka';
import type {
  DetectionEvent,
  DetectionState,
  InvestigationDecision,
  InvestigationSnapshot,
  NotificationDecision,
} from '@vigil/notification-policy';

/**
 * Keys of the state topic: a detection's state under its id (the detections read model
 * consumes these), an investigation's last notified fingerprint under this prefix.
 */
export const INVESTIGATION_STATE_PREFIX = 'investigation:';

export interface InvestigationStateValue {
  schemaVersion: 1;
  investigationId: string;
  fingerprint: string;
}

export interface ProcessorTopics {
  notificationCommands: string;
  detectionState: string;
}

export function toDetectionEvent(record: DetectionEventRecord): DetectionEvent {
  return {
    id: record.id,
    detectionId: record.detection_id,
    detectionName: record.detection_name,
    personName: record.employee_name,
    personEmail: record.employee_email,
    description: record.description ?? '',
    timestamp: record.happened,
  };
}

/** What an investigation notification is about; updated_at is left out (a resend changes it). */
export function toInvestigationSnapshot(record: InvestigationRecord): InvestigationSnapshot {
  return {
    investigationId: record.id,
    status: record.status,
    outcome: record.outcome ?? '',
    headline: record.headline,
    personName: record.person.name,
    personEmail: record.person.email,
    detectionId: record.detection.id,
    detectionName: record.detection.name,
    riskScore: record.risk_score,
    report: {
      summary: record.summary,
      confidence: record.confidence,
      recommendedAction: record.recommended_action,
      riskScore: record.risk_score,
      findings: record.findings,
      person: {
        role: record.person.role,
        department: record.person.department,
        manager: record.person.manager,
      },
    },
  };
}

/** One command per decision, keyed so a detection's (or investigation's) commands stay in order. */
export function commandRecord(
  topics: ProcessorTopics,
  key: string,
  decision: NotificationDecision | InvestigationDecision,
  now: number,
): OutputRecord {
  return {
    topic: topics.notificationCommands,
    key,
    value: encodeNotificationCommand({
      version: 1,
      id: decision.notificationId,
      emittedAt: now,
      decision,
    }),
  };
}

/** The state record goes to the input's partition number: that is where it is restored from. */
export function detectionStateRecord(
  topics: ProcessorTopics,
  partition: number,
  state: DetectionState,
): OutputRecord {
  return {
    topic: topics.detectionState,
    key: state.detectionId,
    value: Buffer.from(JSON.stringify(state), 'utf8'),
    partition,
  };
}

export function investigationStateRecord(
  topics: ProcessorTopics,
  partition: number,
  investigationId: string,
  fingerprint: string,
): OutputRecord {
  const value: InvestigationStateValue = { schemaVersion: 1, investigationId, fingerprint };
  return {
    topic: topics.detectionState,
    key: `${INVESTIGATION_STATE_PREFIX}${investigationId}`,
    value: Buffer.from(JSON.stringify(value), 'utf8'),
    partition,
  };
}

/** Problems of a record as one DLQ reason. */
export function describeProblems(
  what: string,
  errors: readonly { path: string; message: string }[],
): string {
  return `invalid ${what}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`;
}
