/**
 * Why a single sign-on could not be completed with the identity provider:
 * - `idp_refused`: the provider answered the sign-in with an error (`access_denied`…);
 * - `unavailable`: the provider could not be reached or its discovery document is unusable;
 * - `exchange_failed`: the code was refused (used twice, expired) or the ID token failed its
 *   checks (issuer, audience, signature, nonce).
 */
export type OidcErrorCode = 'idp_refused' | 'unavailable' | 'exchange_failed';

export class OidcError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    /** The provider's own error code (`access_denied`, `invalid_grant`…), when it gave one. */
    readonly providerError?: string,
  ) {
    super(message);
    this.name = 'OidcError';
  }
}
