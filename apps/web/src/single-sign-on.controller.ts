import { Body, Controller, Get, Inject, Post, Req } from '@nestjs/common';
import { FinishSingleSignOn, SignInError, StartSingleSignOn } from '@vigil/workspace';
import { httpStatusOf } from './responses/domain-error-status';
import { page, redirect, type WebResult } from './responses/web-result';
import { attemptContextOf } from './security/attempt-context';
import { CookiePolicy } from './security/cookie-policy';
import { FreshSession } from './security/fresh-session';
import { safeNextPath } from './security/safe-redirect';
import { type WebRequest } from './security/web-request';
import { signInRefusedPage } from './views/sign-in-refused-page';

/**
 * Single sign-on with OpenID Connect: a form post (CSRF-checked) sends the browser to the
 * identity provider with a state kept in a cookie of this browser; the provider's callback
 * opens a fresh session, or shows why it was refused.
 */
@Controller('sign-in/oidc')
export class SingleSignOnController {
  constructor(
    @Inject(StartSingleSignOn) private readonly startSignOn: StartSingleSignOn,
    @Inject(FinishSingleSignOn) private readonly finishSignOn: FinishSingleSignOn,
    @Inject(FreshSession) private readonly freshSession: FreshSession,
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
  ) {}

  @Post()
  async start(
    @Req() req: WebRequest,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const next = safeNextPath(typeof body.next === 'string' ? body.next : undefined);
    try {
      const started = await this.startSignOn.execute({ nextPath: next, now: new Date() });
      return redirect(started.authorizationUrl.href).withCookie(
        this.cookies.singleSignOnCookie,
        started.state,
        this.cookies.singleSignOn(started.expiresAt),
      );
    } catch (error) {
      return this.refused(error);
    }
  }

  @Get('callback')
  async callback(@Req() req: WebRequest): Promise<WebResult> {
    const query = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1)
      : '';
    try {
      const { user, nextPath } = await this.finishSignOn.execute({
        ...attemptContextOf(req),
        query,
        browserState: (req.cookies as Record<string, string | undefined>)[
          this.cookies.singleSignOnCookie
        ],
        now: new Date(),
      });
      return await this.freshSession.open(req, user, nextPath);
    } catch (error) {
      return this.refused(error);
    }
  }

  private refused(error: unknown): WebResult {
    if (!(error instanceof SignInError)) throw error;
    return page(signInRefusedPage({ message: error.message }), httpStatusOf(error));
  }
}
