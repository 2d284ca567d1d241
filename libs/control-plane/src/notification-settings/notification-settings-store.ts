import {
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { type NewAuditEvent } from '../audit/audit-event';

/** A detection's stored notification configuration (SPEC.md §3.2). */
export interface StoredDetectionConfig {
  readonly detectionId: string;
  readonly config: DetectionNotificationConfig;
  readonly updatedAt: Date;
}

/**
 * What changed, as announced on the `vigil_settings` channel. The payload names the entry only
 * (a NOTIFY payload is limited to 8,000 bytes); listeners re-read it.
 */
export type SettingsChange = { scope: 'global' } | { scope: 'detection'; detectionId: string };

/** The PostgreSQL channel every settings write notifies, in the writing transaction. */
export const SETTINGS_CHANNEL = 'vigil_settings';

/**
 * Where notification settings live. The real adapter is SqlNotificationSettingsStore. Saves
 * validate (InvalidNotificationSettingsError) and announce the change to listeners atomically;
 * given an audit event, they record it in the same transaction.
 */
export interface NotificationSettingsStore {
  /** The global settings, or the defaults of SPEC.md §2.5 when none were ever saved. */
  getGlobal(): Promise<NotificationSettings>;
  saveGlobal(settings: NotificationSettings, audit?: NewAuditEvent): Promise<NotificationSettings>;
  /** A detection's configuration; an unknown detection inherits the global settings. */
  getDetectionConfig(detectionId: string): Promise<DetectionNotificationConfig>;
  saveDetectionConfig(
    detectionId: string,
    config: DetectionNotificationConfig,
    audit?: NewAuditEvent,
  ): Promise<DetectionNotificationConfig>;
  /** Every stored detection configuration, by detection id. */
  listDetectionConfigs(): Promise<StoredDetectionConfig[]>;
}
