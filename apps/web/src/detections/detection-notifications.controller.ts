import {
  BadRequestException,
  Body,
  Controller,
  Inject,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { type AuditContext } from '@vigil/control-plane';
import {
  ChangeDetectionSettings,
  ShowDetection,
  SilenceDetection,
  ToggleCustomSettings,
  WorkspaceError,
  isSilenceChoice,
} from '@vigil/workspace';
import {
  readNotificationSettingsForm,
  refusedFormErrors,
  settingsDraftOf,
} from '../notifications/notification-settings-form';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { detectionPath } from './detection-format';
import { detectionPage } from './detection-page';

type Form = Record<string, unknown>;

/** Back to the detection's Notifications card, saying what the change did. */
function backToSettings(id: string, notice: string): WebResult {
  return redirect(`${detectionPath(id)}?notice=${notice}#notifications`);
}

/**
 * Changing a detection's notification settings, for workspace admins: the transitions of
 * SPEC.md §3.2 (toggle custom, snooze, disable, resume) and its own settings.
 */
@Controller('u/detections/:id/notifications')
@UseGuards(SignedInGuard)
export class DetectionNotificationsController {
  constructor(
    @Inject(ToggleCustomSettings) private readonly toggleCustom: ToggleCustomSettings,
    @Inject(ChangeDetectionSettings) private readonly changeSettings: ChangeDetectionSettings,
    @Inject(SilenceDetection) private readonly silenceDetection: SilenceDetection,
    @Inject(ShowDetection) private readonly showDetection: ShowDetection,
  ) {}

  @Post('custom')
  @UseGuards(new AdminActionGuard('change notification settings'))
  async toggle(
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Form = {},
  ): Promise<WebResult> {
    const choice = body.use_custom;
    if (choice !== 'on' && choice !== 'off') {
      throw new BadRequestException('use_custom must be on or off');
    }
    await this.toggleCustom.execute({ detectionId: id, useCustom: choice === 'on' }, audit);
    return backToSettings(id, choice === 'on' ? 'custom-on' : 'custom-off');
  }

  @Post()
  @UseGuards(new AdminActionGuard('change notification settings'))
  async save(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Form = {},
  ): Promise<WebResult> {
    const values = readNotificationSettingsForm(body);
    try {
      const outcome = await this.changeSettings.execute(
        { detectionId: id, draft: settingsDraftOf(values) },
        audit,
      );
      // Not custom: the toggle was turned off meanwhile (another tab); nothing to save.
      if (outcome === 'not_custom') return redirect(`${detectionPath(id)}#notifications`);
      return backToSettings(id, 'saved');
    } catch (error) {
      if (!(error instanceof WorkspaceError) || error.code !== 'invalid_settings') throw error;
      const overview = await this.showDetection.execute({ detectionId: id });
      const refused = { values, errors: refusedFormErrors(values, error.details) };
      return page(
        detectionPage(viewer, { overview, now: Date.now(), refused }),
        httpStatusOf(error),
      );
    }
  }

  @Post('silence')
  @UseGuards(new AdminActionGuard('silence notifications'))
  async silence(
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Form = {},
  ): Promise<WebResult> {
    const choice = body.silence;
    if (!isSilenceChoice(choice)) {
      throw new BadRequestException('silence must be 1h, 24h, 7d, disable or resume');
    }
    const outcome = await this.silenceDetection.execute(
      { detectionId: id, choice, now: Date.now() },
      audit,
    );
    return backToSettings(id, outcome);
  }
}
