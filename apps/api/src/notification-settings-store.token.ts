/** Injects the NotificationSettingsStore a detection's notification state is read from. */
export const NOTIFICATION_SETTINGS_STORE = Symbol('NOTIFICATION_SETTINGS_STORE');
