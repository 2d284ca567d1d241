import type { IncomingMessage, ServerResponse } from 'node:http';
import typeIs from 'type-is';
import { ApiError } from './api-error';

/**
 * Refuses a request body of any other media type with 415 before a parser sees it, so a body
 * sent as text/plain is never silently treated as empty. Plain node:http types, so that it runs
 * before a framework as well as inside one.
 */
export function requireContentType(...types: string[]) {
  return (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void): void => {
    // A body of zero bytes is no body, whatever its type says (fetch sends one with a bare POST).
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'] !== undefined;
    if (hasBody && typeIs(req, types) === false) {
      next(
        new ApiError(415, 'unsupported_media_type', `Send the body as ${types.join(' or ')}`, {
          accepted: types,
        }),
      );
      return;
    }
    next();
  };
}
