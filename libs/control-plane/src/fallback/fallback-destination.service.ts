import { isEmailAddress } from '@vigil/notification-policy';
import { type AuditContext } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { type SqlClient } from '../sql/sql-client';
import { SqlWebhookProviderStore, isUuid } from '../webhook-providers/sql-webhook-provider-store';
import {
  GLOBAL_FALLBACK_SCOPE,
  MAX_FALLBACK_RECIPIENTS,
  type FallbackDestination,
  type FallbackDestinationInput,
  type FallbackDestinationView,
} from './fallback-destination';
import { FallbackError } from './fallback-error';
import { SqlFallbackStore } from './sql-fallback-store';

const MAX_SCOPE_LENGTH = 200;

/**
 * The fallback destinations (issue #20 item 3): a global one and one per detection, which
 * replaces the global one for that detection's deliveries. The notifier reads them when a
 * delivery dies; admins set them in the web application. Every change is audited.
 */
export class FallbackDestinationService {
  private readonly store: SqlFallbackStore;

  constructor(
    private readonly sql: SqlClient,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.store = new SqlFallbackStore(sql);
  }

  /** The global destination and, given a detection id, that detection's own (null: none). */
  async show(detectionId?: string): Promise<{
    global: FallbackDestinationView | null;
    detection: FallbackDestinationView | null;
  }> {
    const scopes = [GLOBAL_FALLBACK_SCOPE, ...(detectionId === undefined ? [] : [detectionId])];
    const found = await this.store.findAll(scopes);
    return {
      global: found.get(GLOBAL_FALLBACK_SCOPE) ?? null,
      detection: detectionId === undefined ? null : (found.get(detectionId) ?? null),
    };
  }

  /**
   * The destination that applies to each subject (a detection's own, else the global one);
   * subjects without one are left out. Null subjects (digests) and investigations get the
   * global one.
   */
  async resolve(subjectIds: readonly (string | null)[]): Promise<{
    global: FallbackDestinationView | null;
    bySubject: Map<string, FallbackDestinationView>;
  }> {
    const scopes = [
      GLOBAL_FALLBACK_SCOPE,
      ...new Set(subjectIds.filter((id): id is string => id !== null)),
    ];
    const found = await this.store.findAll(scopes);
    const global = found.get(GLOBAL_FALLBACK_SCOPE) ?? null;
    found.delete(GLOBAL_FALLBACK_SCOPE);
    return { global, bySubject: found };
  }

  /** Sets (or, with nothing entered, removes) the global destination. */
  setGlobal(
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    return this.set(GLOBAL_FALLBACK_SCOPE, input, audit);
  }

  /** Sets (or, with nothing entered, removes) a detection's own destination. */
  async setForDetection(
    detectionId: string,
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    if (
      detectionId.length === 0 ||
      detectionId.length > MAX_SCOPE_LENGTH ||
      detectionId === GLOBAL_FALLBACK_SCOPE
    ) {
      throw new FallbackError('invalid_request', 'Detection: not a detection id', 'detectionId');
    }
    return this.set(detectionId, input, audit);
  }

  private async set(
    scope: string,
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null> {
    const destination = await this.checked(input);
    return this.sql.transaction(async (tx) => {
      const store = new SqlFallbackStore(tx);
      const before = (await store.findAll([scope])).get(scope) ?? null;
      if (destination === null) await store.clear(scope);
      else await store.set(scope, destination);
      const after =
        destination === null ? null : ((await store.findAll([scope])).get(scope) ?? null);
      await new SqlAuditLog(tx).append({
        action: 'fallback.changed',
        context: audit,
        target: { type: 'fallback_destination', id: scope },
        details: { before: summary(before), after: summary(after) },
        occurredAt: this.clock(),
      });
      return after;
    });
  }

  /** The destination as entered, checked; null when nothing was entered (no fallback). */
  private async checked(input: FallbackDestinationInput): Promise<FallbackDestination | null> {
    const providerId =
      typeof input.providerId === 'string' && input.providerId.trim() !== ''
        ? input.providerId.trim()
        : null;
    const recipients = recipientsOf(input.recipients);
    if (providerId !== null) {
      const live = isUuid(providerId)
        ? await new SqlWebhookProviderStore(this.sql).findLive(providerId, this.clock())
        : null;
      if (live === null) {
        throw new FallbackError('invalid_request', 'Provider: no such provider', 'providerId');
      }
    }
    const invalid = recipients.find((address) => !isEmailAddress(address));
    if (invalid !== undefined) {
      throw new FallbackError(
        'invalid_request',
        `Recipients: "${invalid.slice(0, 100)}" is not an email address`,
        'recipients',
      );
    }
    if (recipients.length > MAX_FALLBACK_RECIPIENTS) {
      throw new FallbackError(
        'invalid_request',
        `Recipients: at most ${MAX_FALLBACK_RECIPIENTS} addresses`,
        'recipients',
      );
    }
    if (providerId === null && recipients.length === 0) return null;
    return { providerId, recipients };
  }
}

/** Addresses as entered, trimmed and lower-cased, each once. */
function recipientsOf(input: FallbackDestinationInput['recipients']): string[] {
  const list = typeof input === 'string' ? input.split(/[\s,;]+/) : (input ?? []);
  return [...new Set(list.map((address) => address.trim().toLowerCase()).filter(Boolean))];
}

function summary(view: FallbackDestinationView | null) {
  return view === null ? null : { providerId: view.providerId, recipients: view.recipients };
}
