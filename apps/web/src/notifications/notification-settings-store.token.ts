/** Injection token of the NotificationSettingsStore (@vigil/control-plane) the pages use. */
export const NOTIFICATION_SETTINGS_STORE = Symbol('NOTIFICATION_SETTINGS_STORE');
