import { type DynamicModule, Module } from '@nestjs/common';
import { SpeculativeReads, TOKEN_RATE_LIMITER, TokenRateLimitGuard } from '@vigil/auth';
import { CountQueryErrors, QUERY_INSTRUMENTS } from './count-query-errors';
import { DetectionsController } from './detections.controller';
import { EventsController } from './events.controller';
import { InvestigationsController } from './investigations.controller';
import { OpenApiController } from './openapi.controller';
import { QueryApiAccessInterceptor, SPECULATIVE_READS } from './query-api-access';
import { API_LINKS } from './api-links.token';
import { EVENT_READ_MODEL } from './event-read-model.token';
import { NOTIFICATION_SETTINGS_STORE } from './notification-settings-store.token';
import type { ApiDependencies } from './api-dependencies';

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
      ],
      providers: [
        { provide: EVENT_READ_MODEL, useValue: deps.readModel },
        { provide: API_LINKS, useValue: { appUrl: deps.appUrl } },
        { provide: NOTIFICATION_SETTINGS_STORE, useValue: deps.settingsStore },
        { provide: TOKEN_RATE_LIMITER, useValue: deps.rateLimiter },
        TokenRateLimitGuard,
        { provide: SPECULATIVE_READS, useValue: new SpeculativeReads() },
        QueryApiAccessInterceptor,
        { provide: QUERY_INSTRUMENTS, useValue: deps.ops.queries() },
        CountQueryErrors,
      ],
    };
  }
}
