import {
  type AuditContext,
  type FallbackDestinationInput,
  type FallbackDestinationView,
} from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import { requireDetection } from '../notification-settings/require-detection';
import { type FallbackDestinations } from '../ports/fallback-destinations';

export interface ChangeFallbackDestinationCommand {
  /** Absent: the global destination. */
  readonly detectionId?: string;
  readonly destination: FallbackDestinationInput;
}

/**
 * Sets who receives a delivery that died after its last retry, globally or for one detection
 * (which then no longer uses the global one); nothing entered removes it (null). A refused
 * field is a FallbackError naming it. Audited.
 */
export class ChangeFallbackDestination {
  constructor(
    private readonly fallbacks: Omit<FallbackDestinations, 'show'>,
    private readonly readModel: Pick<EventReadModel, 'detectionExists'>,
  ) {}

  async execute(
    command: ChangeFallbackDestinationCommand,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    const { detectionId, destination } = command;
    if (detectionId === undefined) return this.fallbacks.setGlobal(destination, audit);
    await requireDetection(this.readModel, detectionId);
    return this.fallbacks.setForDetection(detectionId, destination, audit);
  }
}
