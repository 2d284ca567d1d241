export { AUTH_REALM, AuthError, type AuthErrorCode } from './auth-error';
export { TOKEN_AUTHENTICATOR, type TokenAuthenticator } from './token-authenticator';
export { API_TOKEN_STRATEGY, ApiTokenStrategy } from './api-token.strategy';
export { ApiTokenGuard } from './api-token.guard';
export { bearerTokenOf, presentedBearerToken } from './bearer-token';
export { authenticateBearerToken } from './authenticate-bearer-token';
export { ApiTokenAccess, type AccessAnswer, type AccessRequest } from './api-token-access';
export {
  ApiTokenAuth,
  CurrentPrincipal,
  REQUIRED_SCOPE,
  RequireScope,
  ScopeGuard,
  checkScope,
  type RequiredScope,
} from './require-scope';
export { ApiAuthModule, type ApiAuthModuleAsyncOptions } from './api-auth.module';
export { createTokenRateLimiter } from './create-token-rate-limiter';
export {
  type RateLimitDecision,
  type TokenRateLimiter,
  type TokenRateLimiterOptions,
} from './token-rate-limiter';
export { FlexibleTokenRateLimiter } from './flexible-token-rate-limiter';
export { LeasedTokenRateLimiter, type PointsLimiter } from './leased-token-rate-limiter';
export { RATE_LIMITS_TABLE, rateLimitStoreFor, type RateLimitStore } from './rate-limit-store';
export { TOKEN_RATE_LIMITER, TokenRateLimitGuard } from './token-rate-limit.guard';
export {
  TokenBudget,
  budgetSpentError,
  rateLimitHeadersOf,
  type SpendingAhead,
} from './token-budget';
export {
  SpeculativeReads,
  type SpeculativeRead,
  type SpeculativeReadsOptions,
} from './speculative-reads';
export { tokenPrincipalOf } from './token-principal';
export {
  DEFAULT_SIGN_IN_THROTTLE,
  decideSignInAttempt,
  delayAfterFailures,
  waitsAfterFailure,
  type SignInLimit,
  type SignInThrottlePolicy,
  type SignInThrottleState,
  type ThrottleDecision,
  type ThrottleKeyState,
  type ThrottleRule,
} from './sign-in-throttle/sign-in-throttle-policy';
export { SignInThrottle, type FailureRecorded } from './sign-in-throttle/sign-in-throttle';
export { OidcError, type OidcErrorCode } from './oidc/oidc-error';
export {
  OpenIdConnectClient,
  type AuthorizationChecks,
  type AuthorizationStart,
  type OidcIdentity,
  type OpenIdConnectSettings,
} from './oidc/openid-connect-client';
