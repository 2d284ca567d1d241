import { type Provider } from '@nestjs/common';
import {
  AccountLinks,
  ChangeDetectionSettings,
  ChangeUserRole,
  CompleteOneTimeLink,
  CreateUser,
  DeleteUser,
  DisableUser,
  EnableUser,
  FindUser,
  InviteUser,
  ListAuditEvents,
  ListUsers,
  ResetUserPassword,
  ShowOneTimeLink,
  ChangeGlobalSettings,
  CreateApiToken,
  DeleteApiToken,
  DeleteWebhookProvider,
  EnrollWebhookProvider,
  FindApiToken,
  FindWebhookProvider,
  ListApiTokens,
  ListDetections,
  ListWebhookProviders,
  PreviewDetectionNotifications,
  ResendDelivery,
  RotateWebhookSecret,
  ChangeProviderFilter,
  ChangeFallbackDestination,
  DisableWebhookProvider,
  EnableWebhookProvider,
  ListDisabledProviders,
  ShowFallbackDestinations,
  SendTestEvent,
  ShowDetection,
  ShowInvestigation,
  ShowNotificationSettings,
  ShowWebhookProvider,
  FinishSingleSignOn,
  SignInOutcomes,
  SignInWithPassword,
  SignOut,
  StartSingleSignOn,
  SilenceDetection,
  SilenceGlobalNotifications,
  ToggleCustomSettings,
} from '@vigil/workspace';
import { type WebDependencies } from './web-dependencies';

/** The use cases the controllers call, each over the ports it needs. */
export function workspaceProviders(deps: WebDependencies): Provider[] {
  const { tokens, readModel, notificationSettings: settings, webhookProviders, deliveries } = deps;
  const { users, auditLog, fallbackDestinations: fallbacks } = deps;
  const links = new AccountLinks({ appUrl: deps.appUrl, mailer: deps.mailer });
  const outcomes = new SignInOutcomes(auditLog, deps.signInLog, deps.signInObserver);
  const provider = deps.singleSignOn?.provider ?? null;
  const provisioning = deps.singleSignOn?.provisioning ?? { role: null, allowedDomains: [] };
  const useCases: [abstract new (...args: never[]) => unknown, () => unknown][] = [
    [ListApiTokens, () => new ListApiTokens(tokens)],
    [CreateApiToken, () => new CreateApiToken(tokens, auditLog)],
    [FindApiToken, () => new FindApiToken(tokens)],
    [DeleteApiToken, () => new DeleteApiToken(tokens, auditLog)],
    [ListUsers, () => new ListUsers(users)],
    [FindUser, () => new FindUser(users)],
    [CreateUser, () => new CreateUser(users)],
    [InviteUser, () => new InviteUser(users, links)],
    [ChangeUserRole, () => new ChangeUserRole(users)],
    [DisableUser, () => new DisableUser(users)],
    [EnableUser, () => new EnableUser(users)],
    [DeleteUser, () => new DeleteUser(users)],
    [ResetUserPassword, () => new ResetUserPassword(users, links)],
    [ShowOneTimeLink, () => new ShowOneTimeLink(users)],
    [CompleteOneTimeLink, () => new CompleteOneTimeLink(users)],
    [ListAuditEvents, () => new ListAuditEvents(auditLog)],
    [ShowNotificationSettings, () => new ShowNotificationSettings(settings, webhookProviders)],
    [ChangeGlobalSettings, () => new ChangeGlobalSettings(settings, webhookProviders)],
    [SilenceGlobalNotifications, () => new SilenceGlobalNotifications(settings)],
    [ListDetections, () => new ListDetections(readModel)],
    [ShowDetection, () => new ShowDetection(readModel, settings, webhookProviders, deliveries)],
    [ToggleCustomSettings, () => new ToggleCustomSettings(readModel, settings)],
    [
      ChangeDetectionSettings,
      () => new ChangeDetectionSettings(readModel, settings, webhookProviders),
    ],
    [SilenceDetection, () => new SilenceDetection(readModel, settings)],
    [
      PreviewDetectionNotifications,
      () =>
        new PreviewDetectionNotifications(readModel, settings, webhookProviders, {
          appUrl: deps.appUrl,
        }),
    ],
    [ShowInvestigation, () => new ShowInvestigation(readModel)],
    [ListWebhookProviders, () => new ListWebhookProviders(webhookProviders, deliveries)],
    [ShowWebhookProvider, () => new ShowWebhookProvider(webhookProviders, deliveries)],
    [FindWebhookProvider, () => new FindWebhookProvider(webhookProviders)],
    [EnrollWebhookProvider, () => new EnrollWebhookProvider(webhookProviders)],
    [RotateWebhookSecret, () => new RotateWebhookSecret(webhookProviders)],
    [ChangeProviderFilter, () => new ChangeProviderFilter(webhookProviders)],
    [DeleteWebhookProvider, () => new DeleteWebhookProvider(webhookProviders)],
    [DisableWebhookProvider, () => new DisableWebhookProvider(webhookProviders)],
    [EnableWebhookProvider, () => new EnableWebhookProvider(webhookProviders)],
    [ListDisabledProviders, () => new ListDisabledProviders(webhookProviders)],
    [
      ShowFallbackDestinations,
      () => new ShowFallbackDestinations(fallbacks, webhookProviders, readModel),
    ],
    [ChangeFallbackDestination, () => new ChangeFallbackDestination(fallbacks, readModel)],
    [ResendDelivery, () => new ResendDelivery(deliveries, webhookProviders)],
    [
      SignInWithPassword,
      () =>
        new SignInWithPassword(deps.users, deps.throttle, outcomes, {
          enabled: deps.passwordSignIn,
        }),
    ],
    [SignOut, () => new SignOut(deps.sessions, auditLog)],
    [StartSingleSignOn, () => new StartSingleSignOn(provider, deps.signInRequests)],
    [
      FinishSingleSignOn,
      () =>
        new FinishSingleSignOn(provider, deps.signInRequests, deps.users, outcomes, provisioning),
    ],
    [SendTestEvent, () => new SendTestEvent(webhookProviders, deliveries, { appUrl: deps.appUrl })],
  ];
  return useCases.map(([provide, useFactory]) => ({ provide, useFactory }));
}
