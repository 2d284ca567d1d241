import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import { answerBeforeFramework } from './answer-before-framework';
import { ApiError } from './api-error';

const UNREADABLE = Symbol('unreadable request target');

/** What the URL of such a request becomes, so that logs and metrics name it for what it is. */
export const UNREADABLE_TARGET_PATH = '/unreadable-request-target';

type MarkedRequest = IncomingMessage & { [UNREADABLE]?: true };

/**
 * Express's router cannot read a request target like `http://[::1:80/` and answers it with its own
 * HTML 404 page, past every middleware: no request id, no log line, no metrics, and the wrong
 * status. This marks such a request and gives it a path the router reads, so that it goes through
 * the app's middleware like any other and `refuseUnreadableTarget` answers it in the app's own
 * way. Call it once the framework has installed its listener on the server.
 */
export function markUnreadableTargets(server: Server): void {
  answerBeforeFramework(server, (req: MarkedRequest) => {
    if (!isReadable(req)) {
      req[UNREADABLE] = true;
      req.url = UNREADABLE_TARGET_PATH;
    }
    return false;
  });
}

/** Middleware, after the request id and the request log: refuses a marked request with a 400. */
export function refuseUnreadableTarget(
  req: IncomingMessage,
  _res: ServerResponse,
  next: (error?: unknown) => void,
): void {
  if ((req as MarkedRequest)[UNREADABLE]) {
    next(unreadableTargetError());
    return;
  }
  next();
}

/** The refusal of a request target no URL parser reads. */
export function unreadableTargetError(): ApiError {
  return ApiError.badRequest('The request target is not a valid URL', { field: 'url' });
}

/** Whether the router can read the request's URL (parseurl throws where it cannot). */
function isReadable(req: IncomingMessage): boolean {
  try {
    parseUrl(req);
    return true;
  } catch {
    return false;
  }
}
