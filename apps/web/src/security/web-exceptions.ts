import { ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';

/** The page needs a signed-in user; the filter redirects to the sign-in page. */
export class SignInRequiredException extends HttpException {
  constructor() {
    super('Sign in required', HttpStatus.UNAUTHORIZED);
  }
}

/** A state-changing request without the right CSRF token or from another origin. */
export class CsrfRefusedException extends ForbiddenException {
  constructor(readonly reason: 'token' | 'origin') {
    super(
      `Request refused: ${reason === 'token' ? 'missing or wrong form token' : 'cross-origin'}`,
    );
  }
}

/** The signed-in user's role does not allow this page or action. */
export class RoleRequiredException extends ForbiddenException {
  constructor(readonly what: string) {
    super(`The workspace admin role is required to ${what}`);
  }
}
