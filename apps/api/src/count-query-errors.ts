import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { catchError, throwError, type Observable } from 'rxjs';
import { ApiError } from '@vigil/http';
import type { QueryInstruments } from '@vigil/ops';

export const QUERY_INSTRUMENTS = Symbol('QUERY_INSTRUMENTS');

/**
 * Counts the event queries refused as written (vigil_query_compile_errors_total): a query that
 * does not parse or type-check (`invalid_query`), or a malformed request body (`invalid_request`).
 */
@Injectable()
export class CountQueryErrors implements NestInterceptor {
  constructor(@Inject(QUERY_INSTRUMENTS) private readonly queries: QueryInstruments) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (
          error instanceof ApiError &&
          error.status === 400 &&
          (error.code === 'invalid_query' || error.code === 'invalid_request')
        ) {
          this.queries.refused(error.code);
        }
        return throwError(() => error);
      }),
    );
  }
}
