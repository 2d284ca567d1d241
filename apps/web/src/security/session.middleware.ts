import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { SessionService } from '@vigil/control-plane';
import { CookiePolicy } from './cookie-policy';
import { type WebRequest } from './web-request';

/** Resolves the session cookie into `req.auth`; an ended session's cookie is cleared. */
@Injectable()
export class SessionMiddleware implements NestMiddleware {
  constructor(
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
  ) {}

  async use(req: WebRequest, res: Response, next: NextFunction): Promise<void> {
    const token = (req.cookies as Record<string, string | undefined>)[this.cookies.sessionCookie];
    const session = await this.sessions.resolve(token);
    if (session !== null) req.auth = session;
    else if (token !== undefined)
      res.clearCookie(this.cookies.sessionCookie, this.cookies.cleared());
    next();
  }
}
