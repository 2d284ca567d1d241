import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiTokenGuard, RequireScope, ScopeGuard } from '@vigil/auth';
import { TokenRateLimitGuard } from './token-rate-limit.guard';

/**
 * What every query endpoint requires, in order: a valid token, budget left for it, and
 * Detection at Read-only or above (DESIGN.md §6).
 */
export function QueryApiAccess(): ClassDecorator {
  return applyDecorators(
    RequireScope('detection', 'read'),
    UseGuards(ApiTokenGuard, TokenRateLimitGuard, ScopeGuard),
  );
}
