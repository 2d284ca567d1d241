import type { Request } from 'express';
import type { AppOps, NodeRequestHandler, RequestPrincipal } from '@vigil/ops';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The request log line and request metrics of an HTTP app, as middleware to install right after
 * `requestIdMiddleware`: the line carries the id the response answers in `x-request-id`.
 */
export function observeHttpRequests(
  ops: AppOps,
  principalOf?: (req: Request) => RequestPrincipal,
  loggedPathOf?: (path: string) => string,
): NodeRequestHandler[] {
  return ops.observeRequests({
    requestIdOf: (_req, res) => String(res.getHeader(REQUEST_ID_HEADER) ?? ''),
    principalOf,
    loggedPathOf,
  });
}
