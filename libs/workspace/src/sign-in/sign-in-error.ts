/**
 * Why a sign-in was refused; the edges map each code to their answer (web: an HTTP status and
 * a page that says why), never the use case.
 * - `bad_credentials`: wrong email or password (also an unknown email, or a disabled user: the
 *   words never tell which emails exist);
 * - `throttled`: too many failures; `retryAfterSeconds` says when to try again;
 * - `password_sign_in_off`: only single sign-on is allowed;
 * - `oidc_not_configured`: no single sign-on is set up;
 * - `oidc_state_missing`, `oidc_foreign_state`, `oidc_state_unknown`, `oidc_state_expired`: a
 *   callback with no state, one this browser did not start, one already used or never issued,
 *   or one that waited too long;
 * - `oidc_idp_refused`: the identity provider answered with an error (`access_denied`…);
 * - `oidc_exchange_failed`: the code or the ID token was refused (a replayed code…);
 * - `oidc_unavailable`: the identity provider could not be reached;
 * - `oidc_email_unverified`: the provider did not verify the email;
 * - `oidc_not_provisioned`, `oidc_domain_not_allowed`: no user has that email, and none may be
 *   created for it;
 * - `oidc_identity_conflict`: the email belongs to a user linked to another identity;
 * - `user_disabled`: the user signed on with the provider but is disabled in Vigil.
 */
export type SignInErrorCode =
  | 'bad_credentials'
  | 'throttled'
  | 'password_sign_in_off'
  | 'oidc_not_configured'
  | 'oidc_state_missing'
  | 'oidc_foreign_state'
  | 'oidc_state_unknown'
  | 'oidc_state_expired'
  | 'oidc_idp_refused'
  | 'oidc_exchange_failed'
  | 'oidc_unavailable'
  | 'oidc_email_unverified'
  | 'oidc_not_provisioned'
  | 'oidc_domain_not_allowed'
  | 'oidc_identity_conflict'
  | 'user_disabled';

export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
    /** For `throttled`: whole seconds until the next attempt may be checked. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}
