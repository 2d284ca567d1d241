import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
} from '@nestjs/common';
import { SessionService, UserService } from '@vigil/control-plane';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AssetsController } from './assets.controller';
import { AuditLogController } from './audit-log/audit-log.controller';
import { AUDIT_RETENTION_DAYS } from './audit-log/audit-retention';
import { DetectionDeliveriesController } from './detections/detection-deliveries.controller';
import { DetectionNotificationsController } from './detections/detection-notifications.controller';
import { DetectionsController } from './detections/detections.controller';
import { FallbackDestinationController } from './fallback/fallback-destination.controller';
import { IntegrationsController } from './integrations/integrations.controller';
import { SECRET_OVERLAP_MS } from './integrations/secret-overlap';
import { WebhookProviderController } from './integrations/webhook-provider.controller';
import { InvestigationsController } from './investigations/investigations.controller';
import { ACCOUNT_EMAILS } from './members/account-emails';
import { MemberController } from './members/member.controller';
import { MembersController } from './members/members.controller';
import { NotificationSettingsController } from './notifications/notification-settings.controller';
import { OneTimeLinkController } from './one-time-links/one-time-link.controller';
import { CookiePolicy } from './security/cookie-policy';
import { CsrfMiddleware } from './security/csrf.middleware';
import { DisabledProvidersMiddleware } from './security/disabled-providers.middleware';
import { SessionMiddleware } from './security/session.middleware';
import { FreshSession } from './security/fresh-session';
import { SIGN_IN_OPTIONS } from './security/sign-in-options';
import { WEB_ORIGIN } from './security/web-origin';
import { SettingsController } from './settings.controller';
import { SignInController } from './sign-in.controller';
import { SingleSignOnController } from './single-sign-on.controller';
import { type WebDependencies } from './web-dependencies';
import { workspaceProviders } from './workspace-providers';

export { type WebDependencies } from './web-dependencies';

@Module({})
export class WebModule implements NestModule {
  static register(deps: WebDependencies): DynamicModule {
    return {
      module: WebModule,
      // IntegrationsController and FallbackDestinationController before
      // WebhookProviderController, MembersController before MemberController: `new` and
      // `fallback` are not provider ids, `new` is not a member id.
      controllers: [
        AssetsController,
        SignInController,
        SingleSignOnController,
        SettingsController,
        ApiKeysController,
        DetectionsController,
        DetectionNotificationsController,
        DetectionDeliveriesController,
        InvestigationsController,
        NotificationSettingsController,
        IntegrationsController,
        FallbackDestinationController,
        WebhookProviderController,
        MembersController,
        MemberController,
        AuditLogController,
        OneTimeLinkController,
      ],
      providers: [
        { provide: UserService, useValue: deps.users },
        { provide: SessionService, useValue: deps.sessions },
        { provide: CookiePolicy, useValue: deps.cookies },
        FreshSession,
        {
          provide: SIGN_IN_OPTIONS,
          useValue: {
            singleSignOn: deps.singleSignOn?.displayName,
            passwordSignIn: deps.passwordSignIn,
          },
        },
        { provide: WEB_ORIGIN, useValue: deps.origin },
        { provide: SECRET_OVERLAP_MS, useValue: deps.secretOverlapMs },
        { provide: AUDIT_RETENTION_DAYS, useValue: deps.auditRetentionDays },
        { provide: ACCOUNT_EMAILS, useValue: deps.mailer !== undefined },
        ...workspaceProviders(deps),
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // Session first: the CSRF check needs to know whose token to expect, and the disabled
    // providers are looked up for admins only.
    consumer
      .apply(SessionMiddleware, CsrfMiddleware, DisabledProvidersMiddleware)
      .exclude('assets/{*path}')
      .forRoutes('{*path}');
  }
}
