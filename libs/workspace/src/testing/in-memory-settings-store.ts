import {
  InvalidNotificationSettingsError,
  type NewAuditEvent,
  type NotificationSettingsStore,
  type StoredDetectionConfig,
} from '@vigil/control-plane';
import {
  DEFAULT_DETECTION_NOTIFICATION_CONFIG,
  DEFAULT_NOTIFICATION_SETTINGS,
  validateNotificationSettings,
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';

/**
 * The settings store of the specs: validates every save as the SQL store does, and keeps the
 * audit events of the saves that succeeded.
 */
export class InMemorySettingsStore implements NotificationSettingsStore {
  global: NotificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  readonly detections = new Map<string, DetectionNotificationConfig>();
  readonly audited: NewAuditEvent[] = [];

  async getGlobal(): Promise<NotificationSettings> {
    return this.global;
  }

  async saveGlobal(
    settings: NotificationSettings,
    audit?: NewAuditEvent,
  ): Promise<NotificationSettings> {
    this.global = valid(settings);
    if (audit) this.audited.push(audit);
    return this.global;
  }

  async getDetectionConfig(detectionId: string): Promise<DetectionNotificationConfig> {
    return this.detections.get(detectionId) ?? DEFAULT_DETECTION_NOTIFICATION_CONFIG;
  }

  async saveDetectionConfig(
    detectionId: string,
    config: DetectionNotificationConfig,
    audit?: NewAuditEvent,
  ): Promise<DetectionNotificationConfig> {
    const saved = { useCustom: config.useCustom, custom: config.custom && valid(config.custom) };
    this.detections.set(detectionId, saved);
    if (audit) this.audited.push(audit);
    return saved;
  }

  async listDetectionConfigs(): Promise<StoredDetectionConfig[]> {
    return [...this.detections].map(([detectionId, config]) => ({
      detectionId,
      config,
      updatedAt: new Date(0),
    }));
  }
}

function valid(settings: NotificationSettings): NotificationSettings {
  const result = validateNotificationSettings(settings);
  if (!result.ok) throw new InvalidNotificationSettingsError(result.errors);
  return result.value;
}
