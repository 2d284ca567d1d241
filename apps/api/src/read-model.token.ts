export const EVENT_READ_MODEL = Symbol('EVENT_READ_MODEL');
export const API_LINKS = Symbol('API_LINKS');

export interface ApiLinks {
  appUrl: string;
}
