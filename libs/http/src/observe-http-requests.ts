import type { RequestHandler } from 'express';
import type { AppOps, RequestPrincipal } from '@vigil/ops';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The request log line and request metrics of an HTTP app, as Express middleware to install right
 * after `requestIdMiddleware`: the line carries the id the response answers in `x-request-id`.
 */
export function observeHttpRequests(
  ops: AppOps,
  principalOf?: (req: Parameters<RequestHandler>[0]) => RequestPrincipal,
  loggedPathOf?: (path: string) => string,
): RequestHandler[] {
  return ops.observeRequests({
    requestIdOf: (_req, res) => String(res.getHeader(REQUEST_ID_HEADER) ?? ''),
    principalOf,
    loggedPathOf,
  });
}
