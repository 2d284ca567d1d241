import { type CanActivate, type ExecutionContext } from '@nestjs/common';
import { RoleRequiredException, SignInRequiredException } from './web-exceptions';
import { type WebRequest } from './web-request';

/**
 * Routes for workspace admins only, on every method: hiding a link is never the check. Used as
 * an instance, `@UseGuards(new AdminActionGuard('change notification settings'))`, so the
 * refusal names what was attempted.
 */
export class AdminActionGuard implements CanActivate {
  constructor(private readonly what: string) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WebRequest>();
    if (req.auth === undefined) throw new SignInRequiredException();
    if (req.auth.user.role !== 'admin') throw new RoleRequiredException(this.what);
    return true;
  }
}
