import type { WebhookProviderTarget } from '@vigil/control-plane';
import { NO_PROVIDER_FILTER } from '@vigil/notification-policy';

/** A provider as the notifier loads it: a SPEC webhook, enabled, no filter. */
export function aProviderTarget(
  id: string,
  overrides: Partial<WebhookProviderTarget> = {},
): WebhookProviderTarget {
  return {
    id,
    name: `Provider ${id}`,
    destination: { kind: 'webhook', url: 'https://hooks.example.com' },
    url: 'https://hooks.example.com',
    filter: NO_PROVIDER_FILTER,
    secret: 'whsec_x',
    deleted: false,
    disabled: false,
    ...overrides,
  };
}
