import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { SignInRequiredException } from './web-exceptions';
import { type WebRequest } from './web-request';

/** Every page but sign-in needs a session; without one the browser is sent to sign in. */
@Injectable()
export class SignedInGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WebRequest>();
    if (req.auth === undefined) throw new SignInRequiredException();
    return true;
  }
}
