import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
} from '@nestjs/common';
import { ApiTokenService, SessionService, UserService } from '@vigil/control-plane';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AssetsController } from './assets.controller';
import { HealthController } from './health.controller';
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
      ],
      providers: [
        { provide: UserService, useValue: deps.users },
        { provide: SessionService, useValue: deps.sessions },
        { provide: ApiTokenService, useValue: deps.tokens },
        { provide: CookiePolicy, useValue: deps.cookies },
        { provide: SignInThrottle, useValue: deps.throttle },
        { provide: WEB_ORIGIN, useValue: deps.origin },
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
