import { Body, Controller, Get, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { type AuditContext } from '@vigil/control-plane';
import {
  ChangeGlobalSettings,
  ShowNotificationSettings,
  SilenceGlobalNotifications,
  WorkspaceError,
  isSilenceChoice,
} from '@vigil/workspace';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import {
  formValuesOf,
  readNotificationSettingsForm,
  refusedFormErrors,
  settingsDraftOf,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from './notification-settings-form';
import { NOTIFICATIONS_PATH, notificationSettingsPage } from './notification-settings-page';
import { silenceStatus } from './silence-status';

const NOTICES: Readonly<Record<string, string>> = {
  saved: 'Notification settings saved. They apply to new notifications within seconds.',
  snoozed: 'Notifications snoozed.',
  disabled: 'Notifications disabled. Nothing is sent until they are resumed.',
  resumed: 'Notifications resumed.',
};

/**
 * Settings → Notifications: the global settings of SPEC.md §2.5. Everyone signed in may read
 * them; only workspace admins may change them. The store validates every save and announces it
 * (pg_notify) in the same transaction, so the processor applies it at once.
 */
@Controller('settings/notifications')
@UseGuards(SignedInGuard)
export class NotificationSettingsController {
  constructor(
    @Inject(ShowNotificationSettings) private readonly showSettings: ShowNotificationSettings,
    @Inject(ChangeGlobalSettings) private readonly changeSettings: ChangeGlobalSettings,
    @Inject(SilenceGlobalNotifications) private readonly silenceAll: SilenceGlobalNotifications,
  ) {}

  @Get()
  async show(
    @SignedInSession() viewer: Viewer,
    @Query('notice') notice?: string,
  ): Promise<WebResult> {
    return this.render(viewer, undefined, {
      notice: notice === undefined ? undefined : NOTICES[notice],
    });
  }

  @Post()
  @UseGuards(new AdminActionGuard('change notification settings'))
  async save(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const values = readNotificationSettingsForm(body);
    try {
      await this.changeSettings.execute({ draft: settingsDraftOf(values) }, audit);
      return redirect(`${NOTIFICATIONS_PATH}?notice=saved`);
    } catch (error) {
      if (!(error instanceof WorkspaceError) || error.code !== 'invalid_settings') throw error;
      const errors = refusedFormErrors(values, error.details);
      return this.render(viewer, values, { errors, status: httpStatusOf(error) });
    }
  }

  @Post('silence')
  @UseGuards(new AdminActionGuard('silence notifications'))
  async silence(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    const choice = body.silence;
    if (!isSilenceChoice(choice)) {
      return this.render(viewer, undefined, {
        errors: { other: ['Choose how to silence notifications.'] },
        status: 422,
      });
    }
    const outcome = await this.silenceAll.execute({ choice, now: Date.now() }, audit);
    return redirect(`${NOTIFICATIONS_PATH}?notice=${outcome}`);
  }

  /** The page, its form showing `values` as typed, or the stored settings. */
  private async render(
    viewer: Viewer,
    values: NotificationSettingsFormValues | undefined,
    extra: { notice?: string; errors?: NotificationSettingsFormErrors; status?: number },
  ): Promise<WebResult> {
    const { settings, providers } = await this.showSettings.execute();
    const view = notificationSettingsPage({
      viewer,
      settings,
      values: values ?? formValuesOf(settings),
      providers,
      silence: silenceStatus(settings.silence, Date.now()),
      errors: extra.errors,
      notice: extra.notice,
    });
    return page(view, extra.status);
  }
}
