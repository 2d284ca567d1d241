import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error';

/**
 * Refuses a request body of any other media type with 415 before a parser sees it, so a body
 * sent as text/plain is never silently treated as empty.
 */
export function requireContentType(...types: string[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is(types)) {
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
