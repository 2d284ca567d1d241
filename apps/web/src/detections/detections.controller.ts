import { Controller, Get, Inject, Param, Query, UseGuards } from '@nestjs/common';
import {
  ListDetections,
  PreviewDetectionNotifications,
  ShowDetection,
  ShowFallbackDestinations,
} from '@vigil/workspace';
import { page, type WebResult } from '../responses/web-result';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { detectionDryRunPage } from './detection-dry-run-page';
import { detectionListPage } from './detection-list-page';
import { detectionPage } from './detection-page';

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Monitor → Detections, a detection's page (the `action_url` of detection webhooks) and what
 * would be sent about it now, for everyone signed in: the dry run changes nothing and shows only
 * what the detection's page shows. The page's changes are DetectionNotificationsController's
 * and DetectionDeliveriesController's.
 */
@Controller('u/detections')
@UseGuards(SignedInGuard)
export class DetectionsController {
  constructor(
    @Inject(ListDetections) private readonly listDetections: ListDetections,
    @Inject(ShowDetection) private readonly showDetection: ShowDetection,
    @Inject(PreviewDetectionNotifications)
    private readonly previewNotifications: PreviewDetectionNotifications,
    @Inject(ShowFallbackDestinations) private readonly showFallbacks: ShowFallbackDestinations,
  ) {}

  @Get()
  async list(
    @SignedInSession() viewer: Viewer,
    @Query('cursor') cursor?: unknown,
  ): Promise<WebResult> {
    const detections = await this.listDetections.execute({ cursor: text(cursor) });
    return page(detectionListPage(viewer, detections));
  }

  @Get(':id/dry-run')
  async dryRun(@SignedInSession() viewer: Viewer, @Param('id') id: string): Promise<WebResult> {
    const preview = await this.previewNotifications.execute({ detectionId: id, now: Date.now() });
    return page(detectionDryRunPage(viewer, preview));
  }

  @Get(':id')
  async show(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<WebResult> {
    const [overview, fallback] = await Promise.all([
      this.showDetection.execute({
        detectionId: id,
        query: text(query.q),
        eventsCursor: text(query.cursor),
        usersCursor: text(query.users),
      }),
      this.showFallbacks.execute({ detectionId: id }),
    ]);
    const notice = text(query.notice);
    const view = detectionPage(viewer, { overview, fallback, now: Date.now(), notice });
    return page(view, overview.events.error === undefined ? 200 : 400);
  }
}
