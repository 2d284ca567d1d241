import { DeliveryError, type AuditContext, type DeliveryView } from '@vigil/control-plane';
import { type DeliveryLog } from '../ports/delivery-log';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';
import { WorkspaceError } from '../workspace-error';

/** Whose delivery it is: a detection's (its page) or an enrolled provider's (its page). */
export type DeliveryOwner = { readonly detectionId: string } | { readonly providerId: string };

/** `resent`, or `already_resent` when it was not dead any more (resent from another tab). */
export type ResendDeliveryOutcome = 'resent' | 'already_resent';

/**
 * Sends a dead delivery again (DESIGN.md §5): same id and payload, due now, with a fresh retry
 * schedule. A delivery that is not the owner's is not found, whatever its id. The resend is
 * audited in its own transaction.
 */
export class ResendDelivery {
  constructor(
    private readonly deliveries: DeliveryLog,
    private readonly providers: WebhookProviders,
  ) {}

  async execute(
    command: { readonly deliveryId: string; readonly owner: DeliveryOwner },
    audit: AuditContext,
  ): Promise<ResendDeliveryOutcome> {
    const isOwners = await this.ownership(command.owner);
    const delivery = await this.deliveries.find(command.deliveryId);
    if (delivery === null || !isOwners(delivery)) {
      throw new WorkspaceError('not_found', 'No such delivery');
    }
    try {
      await this.deliveries.resend(delivery.id, {
        action: 'delivery.resent',
        context: audit,
        target: { type: 'delivery', id: delivery.id },
        details: {
          kind: delivery.kind,
          channel: delivery.channel,
          target: delivery.target,
          subjectId: delivery.subjectId,
        },
      });
      return 'resent';
    } catch (error) {
      if (error instanceof DeliveryError && error.code === 'not_dead') return 'already_resent';
      throw error;
    }
  }

  private async ownership(owner: DeliveryOwner): Promise<(delivery: DeliveryView) => boolean> {
    if ('detectionId' in owner) {
      return (d) => d.kind === 'detection' && d.subjectId === owner.detectionId;
    }
    const provider = await enrolledProvider(this.providers, owner.providerId);
    return (d) => d.target === provider.id;
  }
}
