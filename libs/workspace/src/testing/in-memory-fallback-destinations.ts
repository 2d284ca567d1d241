import {
  FallbackError,
  type AuditContext,
  type FallbackDestinationInput,
  type FallbackDestinationView,
} from '@vigil/control-plane';
import { type FallbackDestinations } from '../ports/fallback-destinations';

const GLOBAL = '*';

/**
 * The fallback destinations of the specs, by scope (`*` for the global one). A recipient
 * without `@` is refused on `recipients`; each change is kept in `audited`.
 */
export class InMemoryFallbackDestinations implements FallbackDestinations {
  readonly destinations = new Map<string, FallbackDestinationView>();
  readonly audited: { scope: string; audit: AuditContext }[] = [];

  async show(detectionId?: string): Promise<{
    global: FallbackDestinationView | null;
    detection: FallbackDestinationView | null;
  }> {
    return {
      global: this.destinations.get(GLOBAL) ?? null,
      detection: detectionId === undefined ? null : (this.destinations.get(detectionId) ?? null),
    };
  }

  setGlobal(
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    return this.set(GLOBAL, input, audit);
  }

  setForDetection(
    detectionId: string,
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    return this.set(detectionId, input, audit);
  }

  private async set(
    scope: string,
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    const typed = input.recipients ?? [];
    const recipients = (typeof typed === 'string' ? typed.split(/[\s,]+/) : [...typed]).filter(
      (r) => r !== '',
    );
    const wrong = recipients.find((r) => !r.includes('@'));
    if (wrong !== undefined) {
      throw new FallbackError(
        'invalid_request',
        `Recipients: "${wrong}" is not an email address`,
        'recipients',
      );
    }
    this.audited.push({ scope, audit });
    const providerId = input.providerId || null;
    if (providerId === null && recipients.length === 0) {
      this.destinations.delete(scope);
      return null;
    }
    const view = {
      scope,
      providerId,
      providerName: providerId,
      recipients,
      updatedAt: new Date(0),
    };
    this.destinations.set(scope, view);
    return view;
  }
}
