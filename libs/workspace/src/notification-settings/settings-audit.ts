import { type AuditContext, type NewAuditEvent } from '@vigil/control-plane';
import {
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { type SilenceOutcome } from './silence-choice';

/** What a settings change was: a save of the form, a silence, or the custom toggle. */
export type SettingsChangeKind = 'settings' | SilenceOutcome | 'custom_on' | 'custom_off';

/** The audit event of a change of the global settings, with the settings before and after. */
export function globalSettingsChanged(
  audit: AuditContext,
  change: SettingsChangeKind,
  before: NotificationSettings,
  after: NotificationSettings,
): NewAuditEvent {
  return {
    action: 'settings.global_changed',
    context: audit,
    target: { type: 'settings', id: 'global' },
    details: { change, before, after },
  };
}

/** The audit event of a change of one detection's configuration, before and after. */
export function detectionSettingsChanged(
  audit: AuditContext,
  detectionId: string,
  change: SettingsChangeKind,
  before: DetectionNotificationConfig,
  after: DetectionNotificationConfig,
): NewAuditEvent {
  return {
    action: 'settings.detection_changed',
    context: audit,
    target: { type: 'detection', id: detectionId },
    details: { change, before, after },
  };
}
