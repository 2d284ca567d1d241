import {
  DeliveryError,
  FallbackError,
  TokenError,
  UserError,
  WebhookProviderError,
  type DeliveryErrorCode,
  type FallbackErrorCode,
  type TokenErrorCode,
  type UserErrorCode,
  type WebhookProviderErrorCode,
} from '@vigil/control-plane';
import {
  SignInError,
  WorkspaceError,
  type SignInErrorCode,
  type WorkspaceErrorCode,
} from '@vigil/workspace';

const WORKSPACE: Readonly<Record<WorkspaceErrorCode, number>> = {
  not_found: 404,
  invalid_cursor: 400,
  invalid_settings: 422,
};
const TOKEN: Readonly<Record<TokenErrorCode, number>> = { invalid_request: 422, not_found: 404 };
const USER: Readonly<Record<UserErrorCode, number>> = {
  invalid_request: 422,
  email_taken: 409,
  not_found: 404,
  last_admin: 409,
  user_disabled: 403,
  reset_link_invalid: 404,
  reset_link_expired: 410,
  reset_link_used: 410,
  reset_link_superseded: 410,
  not_provisioned: 403,
  identity_conflict: 409,
};
const PROVIDER: Readonly<Record<WebhookProviderErrorCode, number>> = {
  invalid_request: 422,
  target_refused: 422,
  not_found: 404,
};
// A callback that cannot be used (its state, the provider's answer) is a bad request; a person
// the workspace does not let in is forbidden; an unreachable provider is not Vigil's fault.
const SIGN_IN: Readonly<Record<SignInErrorCode, number>> = {
  bad_credentials: 401,
  throttled: 429,
  password_sign_in_off: 403,
  oidc_not_configured: 404,
  oidc_state_missing: 400,
  oidc_foreign_state: 400,
  oidc_state_unknown: 400,
  oidc_state_expired: 400,
  oidc_idp_refused: 400,
  oidc_exchange_failed: 400,
  oidc_unavailable: 503,
  oidc_email_unverified: 403,
  oidc_not_provisioned: 403,
  oidc_domain_not_allowed: 403,
  oidc_identity_conflict: 409,
  user_disabled: 403,
};
const FALLBACK: Readonly<Record<FallbackErrorCode, number>> = { invalid_request: 422 };
const DELIVERY: Readonly<Record<DeliveryErrorCode, number>> = { not_found: 404, not_dead: 409 };

/**
 * The HTTP status of a use case's refusal, the one place the web application maps domain error
 * codes: the exception filter answers with it, and a refused form is shown again with it.
 * Undefined for anything that is not a domain error.
 */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof WorkspaceError) return WORKSPACE[error.code];
  if (error instanceof TokenError) return TOKEN[error.code];
  if (error instanceof UserError) return USER[error.code];
  if (error instanceof WebhookProviderError) return PROVIDER[error.code];
  if (error instanceof DeliveryError) return DELIVERY[error.code];
  if (error instanceof FallbackError) return FALLBACK[error.code];
  if (error instanceof SignInError) return SIGN_IN[error.code];
  return undefined;
}
