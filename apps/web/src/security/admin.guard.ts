import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { RoleRequiredException, SignInRequiredException } from './web-exceptions';
import { type WebRequest } from './web-request';

/** Routes for workspace admins only, on every method: hiding a link is never the check. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WebRequest>();
    if (req.auth === undefined) throw new SignInRequiredException();
    if (req.auth.user.role !== 'admin') throw new RoleRequiredException('manage API keys');
    return true;
  }
}
