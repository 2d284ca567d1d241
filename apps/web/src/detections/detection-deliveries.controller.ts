import { Controller, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { type AuditContext } from '@vigil/control-plane';
import { ResendDelivery } from '@vigil/workspace';
import { redirect, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { AuditedBy } from '../security/audit-context.decorator';
import { SignedInGuard } from '../security/signed-in.guard';
import { detectionPath } from './detection-format';

/** The Recent deliveries card of a detection: a workspace admin resends a dead delivery. */
@Controller('u/detections/:id/deliveries')
@UseGuards(SignedInGuard)
export class DetectionDeliveriesController {
  constructor(@Inject(ResendDelivery) private readonly resendDelivery: ResendDelivery) {}

  @Post(':deliveryId/resend')
  @UseGuards(new AdminActionGuard('resend deliveries'))
  async resend(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @AuditedBy() audit: AuditContext,
  ): Promise<WebResult> {
    const outcome = await this.resendDelivery.execute(
      { deliveryId, owner: { detectionId: id } },
      audit,
    );
    // Already resent (from another tab): show the delivery as it is now.
    const notice = outcome === 'resent' ? '?notice=resent' : '';
    return redirect(`${detectionPath(id)}${notice}#deliveries`);
  }
}
