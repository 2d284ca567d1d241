import { type FallbackDestinationView, type WebhookProviderView } from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import { type FallbackDestinations } from '../ports/fallback-destinations';
import { type WebhookProviders } from '../ports/webhook-providers';
import { WorkspaceError } from '../workspace-error';

export interface FallbackDestinationsOverview {
  readonly global: FallbackDestinationView | null;
  /** The detection's own, when asked about a detection; null when it uses the global one. */
  readonly detection: FallbackDestinationView | null;
  /** The detection's name (its id when it has none), when asked about a detection. */
  readonly detectionName: string | null;
  /** The providers a fallback may go to: enrolled and enabled. */
  readonly providers: readonly WebhookProviderView[];
}

/** The fallback destinations in force, globally or for a detection, and what may be chosen. */
export class ShowFallbackDestinations {
  constructor(
    private readonly fallbacks: Pick<FallbackDestinations, 'show'>,
    private readonly providers: Pick<WebhookProviders, 'list'>,
    private readonly readModel: Pick<EventReadModel, 'getDetection'>,
  ) {}

  async execute(
    query: { readonly detectionId?: string } = {},
  ): Promise<FallbackDestinationsOverview> {
    const { detectionId } = query;
    const detection =
      detectionId === undefined ? null : await this.readModel.getDetection(detectionId);
    if (detectionId !== undefined && detection === null) {
      throw new WorkspaceError('not_found', 'No such detection');
    }
    const [shown, providers] = await Promise.all([
      this.fallbacks.show(detectionId),
      this.providers.list(),
    ]);
    return {
      ...shown,
      detectionName: detection === null ? null : detection.name || detection.id,
      providers: providers.filter((p) => p.disabled === undefined),
    };
  }
}
