import { REQUEST_ID_HEADER } from '@vigil/http';
import { type AttemptContext } from '@vigil/workspace';
import { type WebRequest } from './web-request';

/**
 * Where a request came from, for throttles and the audit log: the client's address as the
 * `trust proxy` setting (TRUST_PROXY) resolves it, and the request id of its log line.
 */
export function attemptContextOf(req: WebRequest): AttemptContext & { address: string } {
  const requestId = req.res?.getHeader(REQUEST_ID_HEADER);
  return {
    address: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    requestId: typeof requestId === 'string' ? requestId : null,
  };
}
