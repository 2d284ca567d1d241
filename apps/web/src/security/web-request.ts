import type { Request } from 'express';
import { type ActiveSession, type WebhookProviderView } from '@vigil/control-plane';

/** A request after the session and CSRF middleware have run. */
export interface WebRequest extends Request {
  /** The signed-in session, when there is one. */
  auth?: ActiveSession;
  /** The token this request's forms must send back (per session, or per browser before sign-in). */
  csrfToken: string;
  /** For an admin: the providers disabled now, for the banner on every page. */
  disabledProviders?: readonly WebhookProviderView[];
}
