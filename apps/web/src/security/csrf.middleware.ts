import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { CookiePolicy } from './cookie-policy';
import { WEB_ORIGIN } from './web-origin';
import { CsrfRefusedException } from './web-exceptions';
import { type WebRequest } from './web-request';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

function sameToken(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Synchronizer-token CSRF protection for every state-changing request: the form field (or
 * header) must equal the session's token, or, before sign-in, the browser's pre-session token.
 * When the browser sends Origin it must be this application's.
 */
@Injectable()
export class CsrfMiddleware implements NestMiddleware {
  constructor(
    @Inject(CookiePolicy) private readonly cookies: CookiePolicy,
    @Inject(WEB_ORIGIN) private readonly appOrigin: string,
  ) {}

  use(req: WebRequest, res: Response, next: NextFunction): void {
    req.csrfToken = req.auth?.csrfToken ?? this.preSessionToken(req, res);
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined && !this.isOwnOrigin(origin, req)) {
      throw new CsrfRefusedException('origin');
    }
    const body = req.body as Record<string, unknown> | undefined;
    const presented = body?.[CSRF_FIELD] ?? req.get(CSRF_HEADER);
    if (!sameToken(presented, req.csrfToken)) throw new CsrfRefusedException('token');
    next();
  }

  private preSessionToken(req: WebRequest, res: Response): string {
    const name = this.cookies.preSessionCsrfCookie;
    const existing = (req.cookies as Record<string, string | undefined>)[name];
    if (existing !== undefined && TOKEN_FORMAT.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    res.cookie(name, token, this.cookies.preSession());
    return token;
  }

  /** The configured APP_URL origin, or the origin the request was addressed to. */
  private isOwnOrigin(origin: string, req: WebRequest): boolean {
    return origin === this.appOrigin || origin === `${req.protocol}://${req.get('host')}`;
  }
}
