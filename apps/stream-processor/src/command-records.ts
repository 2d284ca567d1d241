import {
  encodeDetectionCommands,
  encodeNotificationCommand,
  type InvestigationDecision,
  type NotificationDecision,
} from '@vigil/contracts';
import type { OutputRecord } from '@vigil/kafka';
import type { ProcessorTopics } from './processor-topics';

/**
 * The decisions of one recalculation of a detection in one record (version 2), keyed by the
 * detection so its commands stay in order.
 */
export function detectionCommandsRecord(
  topics: ProcessorTopics,
  detectionId: string,
  decisions: readonly NotificationDecision[],
  now: number,
): OutputRecord {
  return {
    topic: topics.notificationCommands,
    key: detectionId,
    value: encodeDetectionCommands(decisions, now),
  };
}

/** One command per decision, keyed so an investigation's commands stay in order. */
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
