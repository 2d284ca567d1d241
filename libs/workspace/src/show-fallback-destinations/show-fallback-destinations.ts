import { type FallbackDestinationView, type WebhookProviderView } from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import { requireDetection } from '../notification-settings/require-detection';
import { type FallbackDestinations } from '../ports/fallback-destinations';
import { type WebhookProviders } from '../ports/webhook-providers';

export interface FallbackDestinationsOverview {
  readonly global: FallbackDestinationView | null;
  /** The detection's own, when asked about a detection; null when it uses the global one. */
  readonly detection: FallbackDestinationView | null;
  /** The providers a fallback may go to: enrolled and enabled. */
  readonly providers: readonly WebhookProviderView[];
}

/** The fallback destinations in force, globally or for a detection, and what may be chosen. */
export class ShowFallbackDestinations {
  constructor(
    private readonly fallbacks: Pick<FallbackDestinations, 'show'>,
    private readonly providers: Pick<WebhookProviders, 'list'>,
    private readonly readModel: Pick<EventReadModel, 'detectionExists'>,
  ) {}

  async execute(
    query: { readonly detectionId?: string } = {},
  ): Promise<FallbackDestinationsOverview> {
    if (query.detectionId !== undefined) await requireDetection(this.readModel, query.detectionId);
    const [shown, providers] = await Promise.all([
      this.fallbacks.show(query.detectionId),
      this.providers.list(),
    ]);
    return { ...shown, providers: providers.filter((p) => p.disabled === undefined) };
  }
}
