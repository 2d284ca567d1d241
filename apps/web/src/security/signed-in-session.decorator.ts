import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type ActiveSession, type WebhookProviderView } from '@vigil/control-plane';
import { SignInRequiredException } from './web-exceptions';
import { type WebRequest } from './web-request';

/** Who is looking at a page: their session, and the token their forms send back. */
export interface Viewer {
  readonly session: ActiveSession;
  readonly csrfToken: string;
  /** Admins only: the providers disabled now, which every page warns about. */
  readonly disabledProviders?: readonly WebhookProviderView[];
}

/**
 * The signed-in viewer of a page, on routes guarded by SignedInGuard or AdminActionGuard (which
 * run first); a request without a session is sent to sign in all the same.
 */
export const SignedInSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Viewer => {
    const req = context.switchToHttp().getRequest<WebRequest>();
    if (req.auth === undefined) throw new SignInRequiredException();
    return {
      session: req.auth,
      csrfToken: req.csrfToken,
      disabledProviders: req.disabledProviders,
    };
  },
);
