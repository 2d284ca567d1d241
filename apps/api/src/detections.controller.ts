import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  UseInterceptors,
} from '@nestjs/common';
import { ApiError, resourceId } from '@vigil/http';
import { listAffectedUsers, queryEvents, type EventReadModel } from '@vigil/search';
import { CountQueryErrors } from './count-query-errors';
import { QueryApiAccess } from './query-api-access';
import { describeNotificationState } from '@vigil/notification-policy';
import type { NotificationSettingsStore } from '@vigil/control-plane';
import { API_LINKS, type ApiLinks } from './api-links.token';
import { EVENT_READ_MODEL } from './event-read-model.token';
import { NOTIFICATION_SETTINGS_STORE } from './notification-settings-store.token';

@Controller('api-key/v1/detections')
@QueryApiAccess()
export class DetectionsController {
  constructor(
    @Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel,
    @Inject(API_LINKS) private readonly links: ApiLinks,
    @Inject(NOTIFICATION_SETTINGS_STORE) private readonly settings: NotificationSettingsStore,
  ) {}

  @Get(':detectionId')
  async get(@Param('detectionId') detectionId: string) {
    const summary = await this.readModel.getDetection(resourceId(detectionId, 'detection_id'));
    if (!summary) throw ApiError.notFound('Detection', detectionId);
    const [global, config] = await Promise.all([
      this.settings.getGlobal(),
      this.settings.getDetectionConfig(detectionId),
    ]);
    const state = describeNotificationState(global, config, Date.now());
    return {
      ...summary,
      notification: {
        configuration: state.configuration,
        state: state.state,
        snoozed_until:
          state.snoozedUntil === null ? null : new Date(state.snoozedUntil).toISOString(),
        frequency: state.frequency,
        email_enabled: state.emailEnabled,
        webhook_enabled: state.webhookEnabled,
      },
      action_url: `${this.links.appUrl}/u/detections/${encodeURIComponent(detectionId)}`,
    };
  }

  @Post(':detectionId/events')
  @HttpCode(200)
  @UseInterceptors(CountQueryErrors)
  events(@Param('detectionId') detectionId: string, @Body() body: unknown) {
    return queryEvents(this.readModel, body ?? {}, resourceId(detectionId, 'detection_id'));
  }

  @Get(':detectionId/users')
  users(@Param('detectionId') detectionId: string, @Query() query: Record<string, unknown>) {
    return listAffectedUsers(this.readModel, resourceId(detectionId, 'detection_id'), query);
  }
}
