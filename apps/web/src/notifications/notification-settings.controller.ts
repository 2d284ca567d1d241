import { Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import {
  InvalidNotificationSettingsError,
  WebhookProviderService,
  type NotificationSettingsStore,
} from '@vigil/control-plane';
import {
  disableGlobal,
  isSnoozeDuration,
  snoozeGlobal,
  unsilenceGlobal,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { AdminActionGuard } from '../security/admin-action.guard';
import { SignedInGuard } from '../security/signed-in.guard';
import { type WebRequest } from '../security/web-request';
import { sendPage } from '../views/send-page';
import {
  formValuesOf,
  parseNotificationSettingsForm,
  readNotificationSettingsForm,
  settingsFormErrors,
  splitRecipients,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from './notification-settings-form';
import { NOTIFICATIONS_PATH, notificationSettingsPage } from './notification-settings-page';
import { NOTIFICATION_SETTINGS_STORE } from './notification-settings-store.token';
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
    @Inject(NOTIFICATION_SETTINGS_STORE) private readonly settings: NotificationSettingsStore,
    @Inject(WebhookProviderService) private readonly providers: WebhookProviderService,
  ) {}

  @Get()
  async show(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const settings = await this.settings.getGlobal();
    await this.render(req, res, settings, formValuesOf(settings), {
      notice: notice === undefined ? undefined : NOTICES[notice],
    });
  }

  @Post()
  @UseGuards(new AdminActionGuard('change notification settings'))
  async save(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const values = readNotificationSettingsForm((req.body ?? {}) as Record<string, unknown>);
    const [current, providers] = await Promise.all([
      this.settings.getGlobal(),
      this.providers.list(),
    ]);
    const parsed = parseNotificationSettingsForm(
      values,
      current.silence,
      providers.map((p) => p.id),
    );
    let errors: NotificationSettingsFormErrors;
    if (parsed.ok) {
      try {
        await this.settings.saveGlobal(parsed.settings);
        return res.redirect(303, `${NOTIFICATIONS_PATH}?notice=saved`);
      } catch (error) {
        if (!(error instanceof InvalidNotificationSettingsError)) throw error;
        errors = settingsFormErrors(error.errors, splitRecipients(values.recipients));
      }
    } else {
      errors = parsed.errors;
    }
    await this.render(req, res, current, values, { errors, status: 422 });
  }

  @Post('silence')
  @UseGuards(new AdminActionGuard('silence notifications'))
  async silence(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const choice = ((req.body ?? {}) as Record<string, unknown>).silence;
    const current = await this.settings.getGlobal();
    let next: NotificationSettings;
    let notice: string;
    if (isSnoozeDuration(choice)) {
      next = snoozeGlobal(current, choice, Date.now());
      notice = 'snoozed';
    } else if (choice === 'disable') {
      next = disableGlobal(current);
      notice = 'disabled';
    } else if (choice === 'resume') {
      next = unsilenceGlobal(current);
      notice = 'resumed';
    } else {
      return this.render(req, res, current, formValuesOf(current), {
        errors: { other: ['Choose how to silence notifications.'] },
        status: 422,
      });
    }
    await this.settings.saveGlobal(next);
    res.redirect(303, `${NOTIFICATIONS_PATH}?notice=${notice}`);
  }

  private async render(
    req: WebRequest,
    res: Response,
    settings: NotificationSettings,
    values: NotificationSettingsFormValues,
    extra: { notice?: string; errors?: NotificationSettingsFormErrors; status?: number },
  ): Promise<void> {
    const providers = await this.providers.list();
    sendPage(
      res,
      notificationSettingsPage({
        session: req.auth!,
        csrfToken: req.csrfToken,
        settings,
        values,
        providers,
        silence: silenceStatus(settings.silence, Date.now()),
        errors: extra.errors,
        notice: extra.notice,
      }),
      extra.status,
    );
  }
}
