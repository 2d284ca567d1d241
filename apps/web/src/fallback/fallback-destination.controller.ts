import { Body, Controller, Get, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { FallbackError, type AuditContext } from '@vigil/control-plane';
import {
  ChangeFallbackDestination,
  ShowFallbackDestinations,
  type FallbackDestinationsOverview,
} from '@vigil/workspace';
import { detectionPath } from '../detections/detection-format';
import { DETECTIONS_PATH } from '../detections/detection-list-page';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH } from '../integrations/integrations-list-page';
import { httpStatusOf } from '../responses/domain-error-status';
import { page, redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import {
  fallbackErrorsOf,
  fallbackFormValuesOf,
  readFallbackForm,
  type FallbackFormErrors,
  type FallbackFormValues,
} from './fallback-destination-form';
import { fallbackDestinationPage, type FallbackPageModel } from './fallback-destination-page';
import { GLOBAL_FALLBACK_PATH, detectionFallbackPath } from './fallback-destination-paths';

function globalModel(overview: FallbackDestinationsOverview): FallbackPageModel {
  return {
    action: GLOBAL_FALLBACK_PATH,
    backHref: `${INTEGRATIONS_PATH}#fallback`,
    breadcrumb: INTEGRATIONS_BREADCRUMB,
    section: INTEGRATIONS_PATH,
    providers: overview.providers,
    current: overview.global,
  };
}

function detectionModel(id: string, overview: FallbackDestinationsOverview): FallbackPageModel {
  const name = overview.detectionName ?? id;
  return {
    action: detectionFallbackPath(id),
    backHref: `${detectionPath(id)}#fallback`,
    breadcrumb: [
      { label: 'Monitor' },
      { label: 'Detections', href: DETECTIONS_PATH },
      { label: name, href: detectionPath(id) },
    ],
    section: DETECTIONS_PATH,
    detection: { name, global: overview.global },
    providers: overview.providers,
    current: overview.detection,
  };
}

/**
 * Who is told when a delivery dies after its last retry, for workspace admins: the global
 * fallback destination (shown on Settings → Integrations) and a detection's own (shown on its
 * page). A refused field is shown on the form again.
 */
@Controller()
@UseGuards(SignedInGuard)
export class FallbackDestinationController {
  constructor(
    @Inject(ShowFallbackDestinations) private readonly showFallbacks: ShowFallbackDestinations,
    @Inject(ChangeFallbackDestination) private readonly changeFallback: ChangeFallbackDestination,
  ) {}

  @Get('settings/integrations/fallback')
  @UseGuards(new AdminActionGuard('change fallback destinations'))
  async editGlobal(@SignedInSession() viewer: Viewer): Promise<WebResult> {
    const overview = await this.showFallbacks.execute();
    const values = fallbackFormValuesOf(overview.global);
    return page(fallbackDestinationPage(viewer, globalModel(overview), values));
  }

  @Post('settings/integrations/fallback')
  @UseGuards(new AdminActionGuard('change fallback destinations'))
  saveGlobal(
    @SignedInSession() viewer: Viewer,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    return this.save(viewer, audit, body, undefined);
  }

  @Get('u/detections/:id/fallback')
  @UseGuards(new AdminActionGuard('change fallback destinations'))
  async editForDetection(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
  ): Promise<WebResult> {
    const overview = await this.showFallbacks.execute({ detectionId: id });
    const values = fallbackFormValuesOf(overview.detection);
    return page(fallbackDestinationPage(viewer, detectionModel(id, overview), values));
  }

  @Post('u/detections/:id/fallback')
  @UseGuards(new AdminActionGuard('change fallback destinations'))
  saveForDetection(
    @SignedInSession() viewer: Viewer,
    @Param('id') id: string,
    @AuditedBy() audit: AuditContext,
    @Body() body: Record<string, unknown> = {},
  ): Promise<WebResult> {
    return this.save(viewer, audit, body, id);
  }

  private async save(
    viewer: Viewer,
    audit: AuditContext,
    body: Record<string, unknown>,
    detectionId: string | undefined,
  ): Promise<WebResult> {
    const values = readFallbackForm(body);
    const destination = { providerId: values.providerId || null, recipients: values.recipients };
    try {
      await this.changeFallback.execute({ detectionId, destination }, audit);
    } catch (error) {
      if (!(error instanceof FallbackError)) throw error;
      return this.refused(viewer, detectionId, values, fallbackErrorsOf(error), error);
    }
    return redirect(
      detectionId === undefined
        ? `${INTEGRATIONS_PATH}?notice=fallback-changed#fallback`
        : `${detectionPath(detectionId)}?notice=fallback-changed#fallback`,
    );
  }

  private async refused(
    viewer: Viewer,
    detectionId: string | undefined,
    values: FallbackFormValues,
    errors: FallbackFormErrors,
    error: FallbackError,
  ): Promise<WebResult> {
    const overview = await this.showFallbacks.execute({ detectionId });
    const model =
      detectionId === undefined ? globalModel(overview) : detectionModel(detectionId, overview);
    return page(fallbackDestinationPage(viewer, model, values, errors), httpStatusOf(error));
  }
}
