import { type TrustProxy } from '@vigil/config';
import {
  type ApiTokenService,
  type DeliveryService,
  type FallbackDestinationService,
  type NotificationSettingsStore,
  type SessionService,
  type SignInRequestStore,
  type UserService,
  type WebhookProviderService,
} from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import {
  type AuditTrail,
  type IdentityProvider,
  type Mailer,
  type SignInLogger,
  type SignInObserver,
  type SignInThrottling,
  type SingleSignOnProvisioning,
} from '@vigil/workspace';
import { type CookiePolicy } from './security/cookie-policy';

/** What the web application is built around; start-web.ts gives the real ones, tests their own. */
export interface WebDependencies {
  readonly users: UserService;
  readonly sessions: SessionService;
  readonly tokens: ApiTokenService;
  readonly cookies: CookiePolicy;
  readonly throttle: SignInThrottling;
  /** Which proxies may say who the client is (TRUST_PROXY). */
  readonly trustProxy: TrustProxy;
  /** Sign-in outcomes go to the log through it (failures and throttles as warnings). */
  readonly signInLog: SignInLogger;
  /** Told of every sign-in outcome (counters); none by default. */
  readonly signInObserver?: SignInObserver;
  /** False when PASSWORD_SIGN_IN=off. */
  readonly passwordSignIn: boolean;
  /** Single sign-on, when OIDC_ISSUER_URL is set. */
  readonly singleSignOn: {
    readonly provider: IdentityProvider;
    readonly displayName: string;
    /** Origins the sign-in form may be redirected to (the provider's, for the CSP). */
    readonly formTargets: readonly string[];
    readonly provisioning: SingleSignOnProvisioning;
  } | null;
  readonly signInRequests: SignInRequestStore;
  /** Origin of APP_URL: the one origin allowed to post forms. */
  readonly origin: string;
  /** APP_URL itself, for links in what Vigil sends (test events, invitations). */
  readonly appUrl: string;
  /** The read models: detections, events, investigations. */
  readonly readModel: EventReadModel;
  readonly notificationSettings: NotificationSettingsStore;
  readonly webhookProviders: WebhookProviderService;
  readonly deliveries: DeliveryService;
  /** Who receives a delivery that died after its last retry, globally or per detection. */
  readonly fallbackDestinations: FallbackDestinationService;
  /** The audit log (append-only). */
  readonly auditLog: AuditTrail;
  /** AUDIT_RETENTION_DAYS, as Settings → Audit log says it. */
  readonly auditRetentionDays: number;
  /** WEBHOOK_SECRET_OVERLAP in milliseconds, as the rotation page says it. */
  readonly secretOverlapMs: number;
  /** Sends invitations and password resets; absent without an SMTP server (links are shown). */
  readonly mailer?: Mailer;
}
