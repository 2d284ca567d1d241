export { AUTH_REALM, AuthError, type AuthErrorCode } from './auth-error';
export { TOKEN_AUTHENTICATOR, type TokenAuthenticator } from './token-authenticator';
export { API_TOKEN_STRATEGY, ApiTokenStrategy } from './api-token.strategy';
export { ApiTokenGuard, bearerTokenOf } from './api-token.guard';
export {
  ApiTokenAuth,
  CurrentPrincipal,
  REQUIRED_SCOPE,
  RequireScope,
  ScopeGuard,
  type RequiredScope,
} from './require-scope';
export { ApiAuthModule, type ApiAuthModuleAsyncOptions } from './api-auth.module';
export {
  TokenRateLimiter,
  createTokenRateLimiter,
  type RateLimitDecision,
  type TokenRateLimiterOptions,
} from './token-rate-limiter';
export {
  SpeculativeReads,
  type SpeculativeRead,
  type SpeculativeReadsOptions,
} from './speculative-reads';
