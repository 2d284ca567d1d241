import {
  DEFAULT_DETECTION_NOTIFICATION_CONFIG,
  DEFAULT_NOTIFICATION_SETTINGS,
  copySettings,
  validateNotificationSettings,
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { type NewAuditEvent } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { InvalidNotificationSettingsError } from './invalid-notification-settings-error';
import {
  SETTINGS_CHANNEL,
  type NotificationSettingsStore,
  type SettingsChange,
  type StoredDetectionConfig,
} from './notification-settings-store';

interface DetectionConfigRow {
  detection_id: string;
  use_custom: boolean;
  custom_settings: unknown;
  updated_at: Date;
}

const MAX_DETECTION_ID_LENGTH = 200;

/** NotificationSettingsStore over the tables of migration 0002. */
export class SqlNotificationSettingsStore implements NotificationSettingsStore {
  constructor(private readonly sql: SqlClient) {}

  async getGlobal(): Promise<NotificationSettings> {
    const { rows } = await this.sql.query<{ settings: unknown }>(
      'SELECT settings FROM notification_settings_global WHERE singleton',
    );
    return rows.length === 0
      ? copySettings(DEFAULT_NOTIFICATION_SETTINGS)
      : fromStored(rows[0].settings);
  }

  async saveGlobal(
    settings: NotificationSettings,
    audit?: NewAuditEvent,
  ): Promise<NotificationSettings> {
    const valid = validated(settings);
    await this.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO notification_settings_global (singleton, settings, updated_at)
         VALUES (true, $1::jsonb, now())
         ON CONFLICT (singleton) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
        [JSON.stringify(valid)],
      );
      await announce(tx, { scope: 'global' });
      if (audit) await new SqlAuditLog(tx).append(audit);
    });
    return valid;
  }

  async getDetectionConfig(detectionId: string): Promise<DetectionNotificationConfig> {
    const { rows } = await this.sql.query<DetectionConfigRow>(
      `SELECT detection_id, use_custom, custom_settings, updated_at
       FROM detection_notification_configs WHERE detection_id = $1`,
      [detectionId],
    );
    return rows.length === 0 ? { ...DEFAULT_DETECTION_NOTIFICATION_CONFIG } : toConfig(rows[0]);
  }

  async saveDetectionConfig(
    detectionId: string,
    config: DetectionNotificationConfig,
    audit?: NewAuditEvent,
  ): Promise<DetectionNotificationConfig> {
    if (detectionId.length === 0 || detectionId.length > MAX_DETECTION_ID_LENGTH) {
      throw new RangeError(`detection id must be 1 to ${MAX_DETECTION_ID_LENGTH} characters`);
    }
    if (config.useCustom && !config.custom) {
      throw new InvalidNotificationSettingsError([
        { field: 'custom', message: 'is required when the custom configuration is on' },
      ]);
    }
    // Turning custom off discards the copy (see setUseCustom): nothing stale can come back.
    const stored: DetectionNotificationConfig = config.useCustom
      ? { useCustom: true, custom: validated(config.custom!) }
      : { useCustom: false, custom: null };
    await this.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO detection_notification_configs (detection_id, use_custom, custom_settings, updated_at)
         VALUES ($1, $2, $3::jsonb, now())
         ON CONFLICT (detection_id) DO UPDATE
           SET use_custom = EXCLUDED.use_custom,
               custom_settings = EXCLUDED.custom_settings,
               updated_at = now()`,
        [detectionId, stored.useCustom, stored.custom ? JSON.stringify(stored.custom) : null],
      );
      await announce(tx, { scope: 'detection', detectionId });
      if (audit) await new SqlAuditLog(tx).append(audit);
    });
    return stored;
  }

  async listDetectionConfigs(): Promise<StoredDetectionConfig[]> {
    const { rows } = await this.sql.query<DetectionConfigRow>(
      `SELECT detection_id, use_custom, custom_settings, updated_at
       FROM detection_notification_configs ORDER BY detection_id`,
    );
    return rows.map((row) => ({
      detectionId: row.detection_id,
      config: toConfig(row),
      updatedAt: new Date(row.updated_at),
    }));
  }
}

/** pg_notify is transactional: listeners hear of the change only if it commits. */
async function announce(tx: SqlExecutor, change: SettingsChange): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, JSON.stringify(change)]);
}

function validated(settings: NotificationSettings): NotificationSettings {
  const result = validateNotificationSettings(settings);
  if (!result.ok) throw new InvalidNotificationSettingsError(result.errors);
  return result.value;
}

/**
 * Stored settings were validated when written; fields added by a later version take their
 * defaults, so an old row still reads as complete settings.
 */
function fromStored(value: unknown): NotificationSettings {
  const stored = (value ?? {}) as Partial<NotificationSettings>;
  return copySettings({ ...DEFAULT_NOTIFICATION_SETTINGS, ...stored });
}

function toConfig(row: DetectionConfigRow): DetectionNotificationConfig {
  if (row.use_custom && row.custom_settings !== null) {
    return { useCustom: true, custom: fromStored(row.custom_settings) };
  }
  return { useCustom: false, custom: null };
}
