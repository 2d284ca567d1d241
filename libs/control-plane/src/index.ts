// SQL port, adapter and migrations
export {
  silentLogger,
  type ControlPlaneLogger,
  type SqlClient,
  type SqlExecutor,
  type SqlResult,
} from './sql/sql-client';
export { createPgSqlClient, type PgSqlClientOptions } from './sql/pg-sql-client';
export { SqlUnavailableError, isUnavailableError } from './sql/sql-unavailable-error';
export {
  MigrationError,
  runMigrations,
  type MigrationReport,
  type RunMigrationsOptions,
} from './sql/run-migrations';
export { controlPlaneMigrations, type Migration } from '../migrations';

// Permissions (SPEC.md §5)
export {
  LEVEL_KEYS,
  PERMISSION_LEVELS,
  SCOPES,
  SCOPE_KEYS,
  atLeastOneScope,
  completePermissions,
  describePermissions,
  hasScope,
  isPermissionLevel,
  isScope,
  levelLabel,
  levelSatisfies,
  parsePermissions,
  permissionsFromStored,
  presetPermissions,
  scopeLabel,
  type PermissionLevel,
  type PermissionProblem,
  type Permissions,
  type Scope,
} from './permissions/permissions';

// API tokens
export {
  TOKEN_STATE_LABELS,
  tokenStateAt,
  type ApiPrincipal,
  type ApiTokenRecord,
  type ApiTokenState,
  type ApiTokenView,
  type AuthenticationFailureCode,
  type AuthenticationResult,
} from './api-tokens/api-token';
export {
  DEFAULT_TOKEN_LIFETIME_DAYS,
  MAX_TOKEN_LIFETIME_DAYS,
  TOKEN_NAME_MAX_LENGTH,
  validateCreateToken,
  type CreateTokenCommand,
  type ValidTokenRequest,
} from './api-tokens/create-token-command';
export { TokenError, type FieldProblem, type TokenErrorCode } from './api-tokens/token-error';
export {
  TOKEN_LENGTH,
  TOKEN_PREFIX,
  generateTokenValue,
  hashTokenValue,
  parseTokenValue,
  type ParsedTokenValue,
} from './api-tokens/token-value';
export {
  type ApiTokenStore,
  type NewApiToken,
  type StoredApiToken,
} from './api-tokens/api-token-store';
export { SqlApiTokenStore } from './api-tokens/sql-api-token-store';
export {
  ApiTokenService,
  type ApiTokenServiceOptions,
  type CreatedToken,
} from './api-tokens/api-token.service';
export { createApiTokenService } from './api-tokens/create-api-token-service';
