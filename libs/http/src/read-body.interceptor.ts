import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, switchMap, type Observable } from 'rxjs';

/** An express body parser (express.json, express.text, …). */
export type BodyParser = (req: Request, res: Response, next: (error?: Error) => void) => void;

/** The parsers ReadBodyInterceptor runs, in order; the first whose type matches reads the body. */
export const BODY_PARSERS = Symbol('BODY_PARSERS');

/**
 * Reads the request body inside the route, after its guards, instead of in a global middleware:
 * a request without a valid token, or over its rate limit, is refused from its headers alone
 * and its body is never buffered. A parser's failure (too large, malformed) reaches the
 * exception filter as it would from the middleware.
 */
@Injectable()
export class ReadBodyInterceptor implements NestInterceptor {
  constructor(@Inject(BODY_PARSERS) private readonly parsers: readonly BodyParser[]) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    return from(this.read(request, response)).pipe(switchMap(() => next.handle()));
  }

  private async read(request: Request, response: Response): Promise<void> {
    for (const parser of this.parsers) {
      const failure = await new Promise<Error | undefined>((resolve) =>
        parser(request, response, resolve),
      );
      // body-parser's errors carry the `type` and `status` the exception filter maps.
      if (failure) throw failure;
    }
  }
}
