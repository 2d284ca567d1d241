import type { InvestigationDecision, NotificationDecision } from '@vigil/notification-policy';

/**
 * What the stream processor asks the notifier to deliver, one record per decision on
 * `notifications.commands.v1` (JSON, keyed by detection id or investigation id). The id is the
 * decision's deterministic notification id, so a replayed command is recognisably the same.
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

/** Returns null for bytes that are not a command of a version this code understands. */
export function decodeNotificationCommand(bytes: Buffer | null): NotificationCommand | null {
  if (!bytes) return null;
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<NotificationCommand>;
    if (
      value.version === 1 &&
      typeof value.id === 'string' &&
      typeof value.emittedAt === 'number' &&
      typeof value.decision === 'object' &&
      value.decision !== null &&
      typeof (value.decision as { kind?: unknown }).kind === 'string'
    ) {
      return value as NotificationCommand;
    }
    return null;
  } catch {
    return null;
  }
}
