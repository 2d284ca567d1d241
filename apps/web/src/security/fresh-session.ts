import { Inject, Injectable } from '@nestjs/common';
import { SessionService, type UserRecord } from '@vigil/control-plane';
import { redirect, type RedirectResult } from '../responses/web-result';
import { CookiePolicy } from './cookie-policy';
import { type WebRequest } from './web-request';

/**
 * Opens the session of a user who just signed in, however they did: the session this browser
 * had (or had planted in it) ends first, so a cookie set before sign-in is worth nothing after.
 */
@Injectable()
export class FreshSession {
  constructor(
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
  ) {}

  async open(req: WebRequest, user: UserRecord, next: string): Promise<RedirectResult> {
    await this.sessions.endSession(this.tokenOf(req));
    const { token, session } = await this.sessions.startSession(user);
    return redirect(next).withCookie(
      this.cookies.sessionCookie,
      token,
      this.cookies.session(session.expiresAt),
    );
  }

  tokenOf(req: WebRequest): string | undefined {
    return (req.cookies as Record<string, string | undefined>)[this.cookies.sessionCookie];
  }
}
