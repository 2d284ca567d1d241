import { type Migration } from './migration';

/**
 * Notification settings (SPEC.md §2.5, §3.2): the global configuration (a single row) and each
 * detection's choice between inheriting it and its own settings. Settings are stored as the
 * jsonb of notification-policy's NotificationSettings, so the decision engine and the store
 * never disagree on a field; the store validates them before writing.
 */
export const migration0002NotificationSettings: Migration = {
  id: '0002_notification_settings',
  sql: `
CREATE TABLE notification_settings_global (
  singleton   boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
  settings    jsonb       NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE detection_notification_configs (
  detection_id     text        PRIMARY KEY CHECK (char_length(detection_id) BETWEEN 1 AND 200),
  use_custom       boolean     NOT NULL,
  custom_settings  jsonb       CHECK (custom_settings IS NULL OR jsonb_typeof(custom_settings) = 'object'),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT detection_notification_configs_custom_present
    CHECK (NOT use_custom OR custom_settings IS NOT NULL)
);
`,
};
