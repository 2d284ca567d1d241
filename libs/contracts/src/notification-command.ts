import type { InvestigationDecision } from './investigation-decision';
import type { NotificationDecision } from './notification-decision';

/**
 * What the stream processor asks the notifier to deliver: one command per decision. The id is
 * the decision's deterministic notification id, so a replayed command is recognisably the same.
 *
 * On `notifications.commands.v1` (JSON, keyed by detection id or investigation id) a record
 * holds either one command (version 1) or all the decisions of one recalculation of one
 * detection (version 2, see encodeDetectionCommands). Readers accept both.
 */
export interface NotificationCommand {
  version: 1;
  id: string;
  emittedAt: number;
  decision: NotificationDecision | InvestigationDecision;
}

export function encodeNotificationCommand(command: NotificationCommand): Buffer {
  return Buffer.from(JSON.stringify(command), 'utf8');
}
