import {
  BadRequestException,
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import {
  DeliveryError,
  DeliveryService,
  InvalidNotificationSettingsError,
  WebhookProviderService,
  type NotificationSettingsStore,
  type DeliveryView,
  type WebhookProviderView,
} from '@vigil/control-plane';
import {
  disableDetection,
  isSnoozeDuration,
  setUseCustom,
  snoozeDetection,
  unsilenceDetection,
  type DetectionNotificationConfig,
} from '@vigil/notification-policy';
import { QueryError, parseQuery } from '@vigil/query-language';
import {
  decodeCursor,
  decodeDetectionCursor,
  decodeUserCursor,
  encodeCursor,
  encodeUserCursor,
  type EventPage,
  type EventReadModel,
} from '@vigil/search';
import { AdminActionGuard } from '../security/admin-action.guard';
import {
  parseNotificationSettingsForm,
  readNotificationSettingsForm,
  settingsFormErrors,
  splitRecipients,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from '../notifications/notification-settings-form';
import { NOTIFICATION_SETTINGS_STORE } from '../notifications/notification-settings-store.token';
import { SignedInGuard } from '../security/signed-in.guard';
import { type WebRequest } from '../security/web-request';
import { sendPage } from '../views/send-page';
import { detectionPath } from './detection-format';
import { detectionListPage } from './detection-list-page';
import {
  DETECTION_DELIVERIES_SHOWN,
  detectionPage,
  type DetectionDeliveryRow,
} from './detection-page';
import { EVENT_READ_MODEL } from './event-read-model.token';

const DETECTIONS_PER_PAGE = 25;
const EVENTS_PER_PAGE = 25;
const USERS_PER_PAGE = 10;
const QUERY_MAX_LENGTH = 8 * 1024;

const NOTICES: Readonly<Record<string, string>> = {
  'custom-on':
    'This detection now uses its own notification settings, starting from a copy of the global settings.',
  'custom-off': 'This detection follows the global notification settings again.',
  saved: 'Notification settings of this detection saved.',
  snoozed: 'Notifications of this detection are snoozed.',
  disabled: 'Notifications of this detection are disabled until resumed.',
  resumed: 'Notifications of this detection are resumed.',
};

/** Notices of the Recent deliveries card. */
const DELIVERY_NOTICES: Readonly<Record<string, string>> = {
  resent: 'Delivery queued again with a fresh retry schedule.',
};

interface DetailParams {
  q?: string;
  cursor?: string;
  users?: string;
  notice?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Monitor → Detections and a detection's page (the `action_url` of detection webhooks). Everyone
 * signed in reads; changing a detection's notification settings is for workspace admins, with
 * the transitions of SPEC.md §3.2 from @vigil/notification-policy.
 */
@Controller('u/detections')
@UseGuards(SignedInGuard)
export class DetectionsController {
  constructor(
    @Inject(EVENT_READ_MODEL) private readonly readModel: EventReadModel,
    @Inject(NOTIFICATION_SETTINGS_STORE) private readonly settings: NotificationSettingsStore,
    @Inject(WebhookProviderService) private readonly providers: WebhookProviderService,
    @Inject(DeliveryService) private readonly deliveries: DeliveryService,
  ) {}

  @Get()
  async list(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('cursor') cursor?: unknown,
  ): Promise<void> {
    const after = text(cursor);
    if (after !== undefined && decodeDetectionCursor(after) === null) {
      throw new BadRequestException('The page cursor is not one this list issued');
    }
    const page = await this.readModel.listDetections({ limit: DETECTIONS_PER_PAGE, cursor: after });
    sendPage(
      res,
      detectionListPage(req.auth!, req.csrfToken, {
        items: page.items,
        nextCursor: page.nextCursor,
        paged: after !== undefined,
      }),
    );
  }

  @Get(':id')
  async show(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    await this.render(req, res, id, {
      q: text(query.q),
      cursor: text(query.cursor),
      users: text(query.users),
      notice: text(query.notice),
    });
  }

  @Post(':id/notifications/custom')
  @UseGuards(new AdminActionGuard('change notification settings'))
  async toggleCustom(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const choice = ((req.body ?? {}) as Record<string, unknown>).use_custom;
    if (choice !== 'on' && choice !== 'off') {
      throw new BadRequestException('use_custom must be on or off');
    }
    await this.requireDetection(id);
    const [config, global] = await Promise.all([
      this.settings.getDetectionConfig(id),
      this.settings.getGlobal(),
    ]);
    await this.settings.saveDetectionConfig(id, setUseCustom(config, choice === 'on', global));
    this.backToSettings(res, id, choice === 'on' ? 'custom-on' : 'custom-off');
  }

  @Post(':id/notifications')
  @UseGuards(new AdminActionGuard('change notification settings'))
  async saveCustom(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    await this.requireDetection(id);
    const values = readNotificationSettingsForm((req.body ?? {}) as Record<string, unknown>);
    const [config, providers] = await Promise.all([
      this.settings.getDetectionConfig(id),
      this.providers.list(),
    ]);
    if (!config.useCustom || config.custom === null) {
      // The toggle was turned off meanwhile (another tab): there is no custom form to save.
      return res.redirect(303, `${detectionPath(id)}#notifications`);
    }
    const parsed = parseNotificationSettingsForm(
      values,
      config.custom.silence,
      providers.map((p) => p.id),
    );
    let errors: NotificationSettingsFormErrors;
    if (parsed.ok) {
      try {
        await this.settings.saveDetectionConfig(id, { useCustom: true, custom: parsed.settings });
        return this.backToSettings(res, id, 'saved');
      } catch (error) {
        if (!(error instanceof InvalidNotificationSettingsError)) throw error;
        errors = settingsFormErrors(error.errors, splitRecipients(values.recipients));
      }
    } else {
      errors = parsed.errors;
    }
    await this.render(req, res, id, {}, { values, errors });
  }

  @Post(':id/notifications/silence')
  @UseGuards(new AdminActionGuard('silence notifications'))
  async silence(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const choice = ((req.body ?? {}) as Record<string, unknown>).silence;
    await this.requireDetection(id);
    const [config, global] = await Promise.all([
      this.settings.getDetectionConfig(id),
      this.settings.getGlobal(),
    ]);
    let next: DetectionNotificationConfig;
    let notice: string;
    if (isSnoozeDuration(choice)) {
      next = snoozeDetection(config, global, choice, Date.now());
      notice = 'snoozed';
    } else if (choice === 'disable') {
      next = disableDetection(config, global);
      notice = 'disabled';
    } else if (choice === 'resume') {
      next = unsilenceDetection(config);
      notice = 'resumed';
    } else {
      throw new BadRequestException('silence must be 1h, 24h, 7d, disable or resume');
    }
    await this.settings.saveDetectionConfig(id, next);
    this.backToSettings(res, id, notice);
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @UseGuards(new AdminActionGuard('resend deliveries'))
  async resend(
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    const delivery = await this.deliveries.find(deliveryId);
    if (delivery === null || delivery.subjectId !== id || delivery.kind !== 'detection') {
      throw new NotFoundException('No such delivery');
    }
    let notice = '?notice=resent';
    try {
      await this.deliveries.resend(deliveryId);
    } catch (error) {
      // Already resent (from another tab): show the delivery as it is now.
      if (!(error instanceof DeliveryError) || error.code !== 'not_dead') throw error;
      notice = '';
    }
    res.redirect(303, `${detectionPath(id)}${notice}#deliveries`);
  }

  private backToSettings(res: Response, id: string, notice: string): void {
    res.redirect(303, `${detectionPath(id)}?notice=${notice}#notifications`);
  }

  /** Settings are kept only for detections that exist, so a typo cannot create one. */
  private async requireDetection(id: string): Promise<void> {
    if (!(await this.readModel.detectionExists(id))) {
      throw new NotFoundException('No such detection');
    }
  }

  private async render(
    req: WebRequest,
    res: Response,
    id: string,
    params: DetailParams,
    refused?: { values: NotificationSettingsFormValues; errors: NotificationSettingsFormErrors },
  ): Promise<void> {
    const detection = await this.readModel.getDetection(id);
    if (detection === null) throw new NotFoundException('No such detection');
    const query = (params.q ?? '').slice(0, QUERY_MAX_LENGTH);
    const eventsAfter = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
    const usersAfter = params.users === undefined ? undefined : decodeUserCursor(params.users);
    if (eventsAfter === null || usersAfter === null) {
      throw new BadRequestException('The page cursor is not one this page issued');
    }
    let events: EventPage = { items: [], next: null };
    let queryError: string | undefined;
    try {
      events = await this.readModel.searchEvents({
        query: parseQuery(query),
        detectionId: id,
        limit: EVENTS_PER_PAGE,
        after: eventsAfter,
      });
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      queryError = error.message;
    }
    const [users, config, global, providers, deliveries] = await Promise.all([
      this.readModel.listAffectedUsers({
        detectionId: id,
        limit: USERS_PER_PAGE,
        after: usersAfter,
      }),
      this.settings.getDetectionConfig(id),
      this.settings.getGlobal(),
      this.providers.list(),
      this.deliveries.list({ subjectId: id, limit: DETECTION_DELIVERIES_SHOWN }),
    ]);
    const deliveryRows = await this.deliveryRows(deliveries, providers);
    const status = refused ? 422 : queryError !== undefined ? 400 : 200;
    sendPage(
      res,
      detectionPage(req.auth!, req.csrfToken, {
        detection,
        events: {
          items: events.items,
          nextCursor: events.next === null ? null : encodeCursor(events.next),
          query,
          cursor: params.cursor,
          error: queryError,
        },
        users: {
          items: users.items,
          nextCursor: users.next === null ? null : encodeUserCursor(users.next),
          cursor: params.users,
        },
        notifications: {
          detectionId: id,
          csrfToken: req.csrfToken,
          canEdit: req.auth!.user.role === 'admin',
          config,
          global,
          providers,
          now: Date.now(),
          refused,
          notice: params.notice === undefined ? undefined : NOTICES[params.notice],
        },
        deliveries: {
          items: deliveryRows,
          canResend: req.auth!.user.role === 'admin',
          now: Date.now(),
          notice: params.notice === undefined ? undefined : DELIVERY_NOTICES[params.notice],
        },
      }),
      status,
    );
  }

  /** Each delivery with its provider's name and its last attempt. */
  private deliveryRows(
    deliveries: readonly DeliveryView[],
    providers: readonly WebhookProviderView[],
  ): Promise<DetectionDeliveryRow[]> {
    const names = new Map(providers.map((p) => [p.id, p.name]));
    return Promise.all(
      deliveries.map(async (delivery) => {
        const attempts =
          delivery.attemptCount === 0 ? [] : await this.deliveries.attempts(delivery.id);
        return {
          delivery,
          targetName:
            delivery.channel === 'email' ? delivery.target : (names.get(delivery.target) ?? null),
          lastAttempt: attempts.at(-1) ?? null,
        };
      }),
    );
  }
}
