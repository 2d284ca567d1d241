export const EVENT_READ_MODEL = Symbol('EVENT_READ_MODEL');
export const API_LINKS = Symbol('API_LINKS');
export const NOTIFICATION_SETTINGS_STORE = Symbol('NOTIFICATION_SETTINGS_STORE');

export interface ApiLinks {
  appUrl: string;
}
