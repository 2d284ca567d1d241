import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { SignInError, SignInWithPassword, SignOut } from '@vigil/workspace';
import { httpStatusOf } from './responses/domain-error-status';
import { page, redirect, type WebResult } from './responses/web-result';
import { attemptContextOf } from './security/attempt-context';
import { CookiePolicy } from './security/cookie-policy';
import { FreshSession } from './security/fresh-session';
import { safeNextPath } from './security/safe-redirect';
import { SIGN_IN_OPTIONS, type SignInOptions } from './security/sign-in-options';
import { type WebRequest } from './security/web-request';
import { signInPage } from './views/sign-in-page';

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** Sign-in with email and password (throttled), and sign-out; both end the session they find. */
@Controller()
export class SignInController {
  constructor(
    @Inject(SignInWithPassword) private readonly signInWithPassword: SignInWithPassword,
    @Inject(SignOut) private readonly signOutUseCase: SignOut,
    @Inject(FreshSession) private readonly freshSession: FreshSession,
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
    @Inject(SIGN_IN_OPTIONS) private readonly options: SignInOptions,
  ) {}

  @Get('sign-in')
  show(
    @Req() req: WebRequest,
    @Query('next') next?: string,
    @Query('signed_out') signedOut?: string,
  ): WebResult {
    if (req.auth !== undefined) return redirect(safeNextPath(next));
    const target = safeNextPath(next);
    return page(
      signInPage({
        ...this.options,
        csrfToken: req.csrfToken,
        next: target === '/' ? undefined : target,
        notice: signedOut === '1' ? 'You are signed out.' : undefined,
      }),
    );
  }

  @Post('sign-in')
  async signIn(
    @Req() req: WebRequest,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const email = field(body, 'email').trim();
    const next = safeNextPath(field(body, 'next'));
    try {
      const user = await this.signInWithPassword.execute({
        ...attemptContextOf(req),
        email,
        password: field(body, 'password'),
      });
      return await this.freshSession.open(req, user, next);
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      const refused = page(
        signInPage({
          ...this.options,
          csrfToken: req.csrfToken,
          email,
          next: next === '/' ? undefined : next,
          error: error.message,
        }),
        httpStatusOf(error),
      );
      return error.retryAfterSeconds === undefined
        ? refused
        : refused.withHeader('Retry-After', String(error.retryAfterSeconds));
    }
  }

  @Post('sign-out')
  async signOut(@Req() req: WebRequest): Promise<WebResult> {
    await this.signOutUseCase.execute({
      ...attemptContextOf(req),
      token: this.freshSession.tokenOf(req),
      user: req.auth?.user ?? null,
    });
    return redirect('/sign-in?signed_out=1').withoutCookie(
      this.cookies.sessionCookie,
      this.cookies.cleared(),
    );
  }
}
