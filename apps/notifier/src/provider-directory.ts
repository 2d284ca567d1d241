import type { WebhookProviderService, WebhookProviderTarget } from '@vigil/control-plane';

/**
 * Providers as the webhook sender needs them, cached briefly so a burst of deliveries to one
 * provider costs one query. A rotated secret or a deletion applies within `ttlMs`.
 */
export class ProviderDirectory {
  private readonly cache = new Map<
    string,
    { at: number; target: Promise<WebhookProviderTarget | undefined> }
  >();

  constructor(
    private readonly providers: WebhookProviderService,
    private readonly ttlMs = 2_000,
  ) {}

  get(id: string): Promise<WebhookProviderTarget | undefined> {
    const now = Date.now();
    const cached = this.cache.get(id);
    if (cached && now - cached.at < this.ttlMs) return cached.target;
    const target = this.providers.targets([id]).then((found) => found.get(id));
    // A failed lookup is not cached: the next attempt asks again.
    target.catch(() => this.cache.delete(id));
    this.cache.set(id, { at: now, target });
    return target;
  }
}
