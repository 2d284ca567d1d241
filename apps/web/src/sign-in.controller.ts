import { Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SessionService, UserService } from '@vigil/control-plane';
import { CookiePolicy } from './security/cookie-policy';
import { safeNextPath } from './security/safe-redirect';
import { SignInThrottle } from './security/sign-in-throttle';
import { type WebRequest } from './security/web-request';
import { sendPage } from './views/send-page';
import { signInPage } from './views/sign-in-page';

const INCORRECT = 'The email or password is incorrect.';

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

@Controller()
export class SignInController {
  constructor(
    @Inject(UserService) private readonly users: UserService,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
  ) {}

  @Get('sign-in')
  show(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('next') next?: string,
    @Query('signed_out') signedOut?: string,
  ): void {
    if (req.auth !== undefined) return res.redirect(303, safeNextPath(next));
    const target = safeNextPath(next);
    sendPage(
      res,
      signInPage({
        csrfToken: req.csrfToken,
        next: target === '/' ? undefined : target,
        notice: signedOut === '1' ? 'You are signed out.' : undefined,
      }),
    );
  }

  @Post('sign-in')
  async signIn(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const email = field(req.body, 'email').trim();
    const password = field(req.body, 'password');
    const next = safeNextPath(field(req.body, 'next'));
    const address = req.ip ?? 'unknown';
    const page = (error: string) =>
      signInPage({
        csrfToken: req.csrfToken,
        email,
        next: next === '/' ? undefined : next,
        error,
      });

    const decision = await this.throttle.check(email, address);
    if (!decision.allowed) {
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      return sendPage(
        res,
        page(
          `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        ),
        429,
      );
    }
    const user = await this.users.verifyCredentials(email, password);
    if (user === null) {
      await this.throttle.recordFailure(email, address);
      return sendPage(res, page(INCORRECT), 401);
    }
    await this.throttle.recordSuccess(email, address);
    // A fresh session on every sign-in: a cookie planted before sign-in is worth nothing after.
    await this.sessions.endSession(this.sessionCookieOf(req));
    const { token, session } = await this.sessions.startSession(user);
    res.cookie(this.cookies.sessionCookie, token, this.cookies.session(session.expiresAt));
    res.redirect(303, next);
  }

  @Post('sign-out')
  async signOut(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.sessions.endSession(this.sessionCookieOf(req));
    res.clearCookie(this.cookies.sessionCookie, this.cookies.cleared());
    res.redirect(303, '/sign-in?signed_out=1');
  }

  private sessionCookieOf(req: WebRequest): string | undefined {
    return (req.cookies as Record<string, string | undefined>)[this.cookies.sessionCookie];
  }
}
