import { type DynamicModule, Module } from '@nestjs/common';
import { SpeculativeReads, createTokenRateLimiter } from '@vigil/auth';
import { DetectionsController } from './detections.controller';
import { EventsController } from './events.controller';
import { HealthController } from './health.controller';
import { InvestigationsController } from './investigations.controller';
import { OpenApiController } from './openapi.controller';
import { QueryApiAccessInterceptor, SPECULATIVE_READS } from './query-api-access';
import { API_LINKS, EVENT_READ_MODEL, NOTIFICATION_SETTINGS_STORE } from './read-model.token';
import type { ApiDependencies } from './start-api';
import { TOKEN_RATE_LIMITER, TokenRateLimitGuard } from './token-rate-limit.guard';

@Module({})
export class ApiModule {
  static register(deps: ApiDependencies, auth: DynamicModule): DynamicModule {
    return {
      module: ApiModule,
      imports: [auth],
      controllers: [
        EventsController,
        DetectionsController,
        InvestigationsController,
        OpenApiController,
        HealthController,
      ],
      providers: [
        { provide: EVENT_READ_MODEL, useValue: deps.readModel },
        { provide: API_LINKS, useValue: { appUrl: deps.appUrl } },
        { provide: NOTIFICATION_SETTINGS_STORE, useValue: deps.settingsStore },
        {
          provide: TOKEN_RATE_LIMITER,
          useValue: createTokenRateLimiter({ pointsPerMinute: deps.rateLimitPerMinute }),
        },
        TokenRateLimitGuard,
        { provide: SPECULATIVE_READS, useValue: new SpeculativeReads() },
        QueryApiAccessInterceptor,
      ],
    };
  }
}
