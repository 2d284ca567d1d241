import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
} from '@nestjs/common';
import {
  ApiTokenService,
  DeliveryService,
  SessionService,
  UserService,
  WebhookProviderService,
  type NotificationSettingsStore,
} from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AssetsController } from './assets.controller';
import { DetectionsController } from './detections/detections.controller';
import { EVENT_READ_MODEL } from './detections/event-read-model.token';
import { HealthController } from './health.controller';
import { IntegrationsController } from './integrations/integrations.controller';
import { SendTestEvent } from './integrations/send-test-event';
import { InvestigationsController } from './investigations/investigations.controller';
import { NotificationSettingsController } from './notifications/notification-settings.controller';
import { NOTIFICATION_SETTINGS_STORE } from './notifications/notification-settings-store.token';
import { CookiePolicy } from './security/cookie-policy';
import { CsrfMiddleware } from './security/csrf.middleware';
import { SessionMiddleware } from './security/session.middleware';
import { SignInThrottle } from './security/sign-in-throttle';
import { WEB_ORIGIN } from './security/web-origin';
import { SettingsController } from './settings.controller';
import { SignInController } from './sign-in.controller';

export interface WebDependencies {
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly tokens: ApiTokenService;
  readonly cookies: CookiePolicy;
  readonly throttle: SignInThrottle;
  /** Origin of APP_URL: the one origin allowed to post forms. */
  readonly origin: string;
  /** The Elasticsearch read models: detections, events, investigations. */
  readonly readModel: EventReadModel;
  readonly notificationSettings: NotificationSettingsStore;
  readonly webhookProviders: WebhookProviderService;
  readonly deliveries: DeliveryService;
  readonly testEvents: SendTestEvent;
}

@Module({})
export class WebModule implements NestModule {
  static register(deps: WebDependencies): DynamicModule {
    return {
      module: WebModule,
      controllers: [
        HealthController,
        AssetsController,
        SignInController,
        SettingsController,
        ApiKeysController,
        DetectionsController,
        InvestigationsController,
        NotificationSettingsController,
        IntegrationsController,
      ],
      providers: [
        { provide: UserService, useValue: deps.users },
        { provide: SessionService, useValue: deps.sessions },
        { provide: ApiTokenService, useValue: deps.tokens },
        { provide: CookiePolicy, useValue: deps.cookies },
        { provide: SignInThrottle, useValue: deps.throttle },
        { provide: WEB_ORIGIN, useValue: deps.origin },
        { provide: EVENT_READ_MODEL, useValue: deps.readModel },
        { provide: NOTIFICATION_SETTINGS_STORE, useValue: deps.notificationSettings },
        { provide: WebhookProviderService, useValue: deps.webhookProviders },
        { provide: DeliveryService, useValue: deps.deliveries },
        { provide: SendTestEvent, useValue: deps.testEvents },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // Session first: the CSRF check needs to know whose token to expect.
    consumer
      .apply(SessionMiddleware, CsrfMiddleware)
      .exclude('assets/{*path}', 'healthz')
      .forRoutes('{*path}');
  }
}
