import {
  type CallHandler,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import {
  ApiTokenGuard,
  RequireScope,
  ScopeGuard,
  SpeculativeReads,
  TokenRateLimitGuard,
  bearerTokenOf,
} from '@vigil/auth';

export const SPECULATIVE_READS = Symbol('SPECULATIVE_READS');

/**
 * Runs what every query endpoint requires, in order: a valid token, budget left for it, and
 * Detection at Read-only or above (DESIGN.md §6). The endpoints only read, so for a token that
 * passed recently the read starts alongside these checks instead of after them; nothing is
 * answered before they pass (SpeculativeReads).
 */
@Injectable()
export class QueryApiAccessInterceptor implements NestInterceptor {
  constructor(
    private readonly tokenGuard: ApiTokenGuard,
    private readonly rateLimitGuard: TokenRateLimitGuard,
    private readonly scopeGuard: ScopeGuard,
    @Inject(SPECULATIVE_READS) private readonly reads: SpeculativeReads,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    return from(
      this.reads.run({
        token: bearerTokenOf(request.headers.authorization),
        authorize: async () => {
          this.rateLimitGuard.spendAhead(request);
          for (const guard of [this.tokenGuard, this.rateLimitGuard, this.scopeGuard]) {
            // Each guard throws its own refusal (401, 429, 403); a plain `false` is what Nest
            // would make of it.
            if (!(await guard.canActivate(context))) throw new ForbiddenException();
          }
        },
        read: () => lastValueFrom(next.handle()),
      }),
    );
  }
}

export function QueryApiAccess(): ClassDecorator {
  return applyDecorators(
    RequireScope('detection', 'read'),
    UseInterceptors(QueryApiAccessInterceptor),
  );
}
