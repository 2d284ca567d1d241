import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  NotFoundException,
} from '@nestjs/common';
import type { Response } from 'express';
import { type Logger } from '@vigil/config';
import { isUnavailableError } from '@vigil/control-plane';
import { REQUEST_ID_HEADER, html } from '@vigil/http';
import { ReadModelUnavailableError } from '@vigil/search';
import {
  CsrfRefusedException,
  RoleRequiredException,
  SignInRequiredException,
} from './security/web-exceptions';
import { type WebRequest } from './security/web-request';
import { httpStatusOf } from './responses/domain-error-status';
import { logSafePath } from './security/log-safe-path';
import { sendWebResult } from './responses/send-web-result';
import { page } from './responses/web-result';
import { statusPage, type StatusPageModel } from './views/status-page';

const NOT_FOUND: StatusPageModel = {
  status: 404,
  title: 'Page not found',
  paragraphs: ['There is nothing here. It may have been deleted, or the address is mistyped.'],
  actions: html`<a class="button" href="/">Go to Vigil</a>`,
};

function describe(exception: unknown, requestId: string | undefined): StatusPageModel {
  if (exception instanceof CsrfRefusedException) {
    return {
      status: 403,
      title: 'This form could not be accepted',
      paragraphs: [
        exception.reason === 'origin'
          ? 'The request came from another site, so nothing was changed.'
          : 'The form was missing its security token or it no longer matches your session (for example after signing out in another tab). Nothing was changed.',
        'Go back, reload the page and try again.',
      ],
      actions: html`<a class="button" href="/">Go to Vigil</a>`,
    };
  }
  if (exception instanceof RoleRequiredException) {
    return {
      status: 403,
      title: 'Workspace admins only',
      paragraphs: [
        `You need the workspace admin role to ${exception.what}. Your account is a member account.`,
        'Ask a workspace admin to make the change, or to give your account the admin role.',
      ],
      actions: html`<a class="button" href="/settings/access/account">Your account</a>`,
    };
  }
  if (exception instanceof NotFoundException) return NOT_FOUND;
  if (isUnavailableError(exception)) {
    return {
      status: 503,
      title: 'Vigil cannot reach its database',
      paragraphs: ['Nothing was changed. Try again in a moment.'],
      requestId,
    };
  }
  if (exception instanceof ReadModelUnavailableError) {
    return {
      status: 503,
      title: 'Detection data is unavailable for a moment',
      paragraphs: [
        'The search service does not answer. Nothing is lost: events are indexed again when it returns.',
      ],
      requestId,
    };
  }
  // A use case's refusal, by its code (the one mapping of domain errors), then Nest's and the
  // body parser's own.
  const status =
    httpStatusOf(exception) ??
    (exception instanceof HttpException
      ? exception.getStatus()
      : ((exception as { status?: unknown } | null)?.status as number | undefined));
  if (status === 404) return NOT_FOUND;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      title: status === 413 ? 'The form is too large' : 'The request could not be understood',
      paragraphs: ['Go back, reload the page and try again.'],
      requestId,
    };
  }
  return {
    status: 500,
    title: 'Something went wrong',
    paragraphs: ['This is a fault in Vigil, not in what you did. It has been logged.'],
    requestId,
  };
}

/** Every failure becomes a page: sign-in redirect, refusal, not found, or a logged fault. */
@Catch()
export class WebExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<WebRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    if (exception instanceof SignInRequiredException) {
      const next = req.method === 'GET' && req.originalUrl !== '/' ? req.originalUrl : undefined;
      return res.redirect(303, next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in');
    }
    const requestId = res.getHeader(REQUEST_ID_HEADER) as string | undefined;
    // req.path is relative to where Nest mounted a middleware; the original URL is not.
    const path = req.originalUrl.split('?')[0];
    const logged = logSafePath(path);
    const model = describe(exception, requestId);
    if (model.status >= 500) {
      this.logger.error({ err: exception, requestId, path: logged }, 'request failed');
    } else if (model.status === 403) {
      this.logger.warn(
        { requestId, path: logged, method: req.method, userId: req.auth?.user.id },
        model.title,
      );
    }
    const viewer = req.auth && { session: req.auth, csrfToken: req.csrfToken ?? '' };
    sendWebResult(res, page(statusPage(viewer, path, model), model.status));
  }
}
