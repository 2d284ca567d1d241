import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  hasScope,
  isPermissionLevel,
  isScope,
  type ApiPrincipal,
  type PermissionLevel,
  type Scope,
} from '@vigil/control-plane';
import { AuthError } from './auth-error';
import { ApiTokenGuard } from './api-token.guard';

export const REQUIRED_SCOPE = 'vigil:required-scope';

export interface RequiredScope {
  readonly scope: Scope;
  readonly level: PermissionLevel;
}

/** The scope and level a handler (or every handler of a controller) needs; see ScopeGuard. */
export function RequireScope(
  scope: Scope,
  level: PermissionLevel,
): ClassDecorator & MethodDecorator {
  if (!isScope(scope) || !isPermissionLevel(level)) {
    throw new Error(`RequireScope: unknown scope or level ${String(scope)}:${String(level)}`);
  }
  return SetMetadata<string, RequiredScope>(REQUIRED_SCOPE, { scope, level });
}

/**
 * Lets the request through when its principal (set by ApiTokenGuard, which must run first) has
 * the scope of @RequireScope; Admin at that level also does. Throws AuthError
 * `insufficient_scope` naming the scope and level. A handler without @RequireScope needs only a
 * valid token.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<{ user?: ApiPrincipal }>().user;
    if (!principal) throw AuthError.missingToken();
    const required = this.reflector.getAllAndOverride<RequiredScope | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (required) checkScope(principal, required);
    return true;
  }
}

/** Throws AuthError `insufficient_scope`, naming the scope and level, unless the principal has it. */
export function checkScope(principal: ApiPrincipal, required: RequiredScope): void {
  if (!hasScope(principal.permissions, required.scope, required.level)) {
    throw AuthError.insufficientScope(required.scope, required.level);
  }
}

/** `@ApiTokenAuth('detection', 'read')`: authenticate with an API token, then check the scope. */
export function ApiTokenAuth(
  scope: Scope,
  level: PermissionLevel,
): ClassDecorator & MethodDecorator {
  return applyDecorators(RequireScope(scope, level), UseGuards(ApiTokenGuard, ScopeGuard));
}

/** The authenticated token's principal, in a handler behind ApiTokenGuard. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ApiPrincipal | undefined =>
    context.switchToHttp().getRequest<{ user?: ApiPrincipal }>().user,
);
