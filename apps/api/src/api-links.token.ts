/** Injects the ApiLinks responses point into. */
export const API_LINKS = Symbol('API_LINKS');

/** Where the web application is, for the `action_url` of a detection or investigation. */
export interface ApiLinks {
  appUrl: string;
}
