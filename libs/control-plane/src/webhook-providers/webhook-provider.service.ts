import { randomUUID } from 'node:crypto';
import {
  DEFAULT_DESTINATION_KIND,
  destinationUrl,
  validateProviderFilter,
  validateDestinationConfig,
  type DestinationConfig,
  type DestinationKind,
} from '@vigil/destinations';
import type { ProviderFilter } from '@vigil/notification-policy';
import { type AuditContext, type NewAuditEvent } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { recoverDeliveries, skipPendingDeliveries } from '../deliveries/held-deliveries';
import { sealingContext } from '../secrets/sealed-columns';
import { isSealed, type SecretBox } from '../secrets/secret-box';
import { SecretsKeyError } from '../secrets/secrets-key-error';
import { silentLogger, type ControlPlaneLogger, type SqlClient } from '../sql/sql-client';
import { SqlWebhookProviderStore, type StoredProviderSecrets } from './sql-webhook-provider-store';
import {
  WEBHOOK_PROVIDER_KINDS,
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type EnableProviderOptions,
  type EnabledProvider,
  type EnrollWebhookProviderCommand,
  type ProviderHealthCandidate,
  type RotateWebhookSecretOptions,
  type WebhookProviderTarget,
  type WebhookProviderView,
  type WebhookProviderWithSecret,
} from './webhook-provider';
import { WebhookProviderError } from './webhook-provider-error';
import { generateWebhookSecret } from './webhook-secret';
import { withoutCredential } from './without-credential';
import {
  PUBLIC_TARGETS_ONLY,
  WebhookTargetError,
  assertWebhookTarget,
  type WebhookTargetPolicy,
} from './webhook-target-guard';

export interface WebhookProviderServiceOptions {
  readonly policy?: WebhookTargetPolicy;
  readonly clock?: () => Date;
  readonly logger?: ControlPlaneLogger;
  /** Checks a URL against the policy (DNS included); replaceable in unit tests. */
  readonly checkTarget?: (url: string, policy: WebhookTargetPolicy) => Promise<unknown>;
  /**
   * Seals secrets at rest (the `secrets` section's key). Every app that writes or reads secrets
   * passes it; without it, secrets are written as plaintext (as before encryption at rest, for
   * a writer not yet given the key: the apps holding the key seal such rows at start-up) and a
   * sealed secret cannot be read.
   */
  readonly secrets?: SecretBox;
  /** How long a rotated-out secret keeps signing (WEBHOOK_SECRET_OVERLAP); default 24 h. */
  readonly secretOverlapMs?: number;
  /**
   * The sources events have come from, which a provider's filter may name (the read model's);
   * without it, a filter can name no source.
   */
  readonly knownSources?: () => Promise<readonly string[]>;
}

export const DEFAULT_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
const TABLE = 'webhook_providers';

/**
 * Webhook integrations of SPEC §2.5: enroll (the signing secret is shown once), list (never
 * the secret), rotate the secret (the new one shown once; the replaced one keeps signing for the
 * overlap), delete. A URL is checked against the SSRF policy here and again by the notifier at
 * every send, since DNS can change in between. Secrets are sealed at rest for their row; given
 * an AuditContext, a change is recorded in the audit log in the same transaction.
 */
export class WebhookProviderService {
  private readonly store: SqlWebhookProviderStore;
  private readonly policy: WebhookTargetPolicy;
  private readonly clock: () => Date;
  private readonly logger: ControlPlaneLogger;
  private readonly checkTarget: (url: string, policy: WebhookTargetPolicy) => Promise<unknown>;
  private readonly secrets: SecretBox | undefined;
  private readonly secretOverlapMs: number;
  private readonly knownSources: () => Promise<readonly string[]>;

  constructor(
    private readonly sql: SqlClient,
    options: WebhookProviderServiceOptions = {},
  ) {
    this.store = new SqlWebhookProviderStore(sql);
    this.policy = options.policy ?? PUBLIC_TARGETS_ONLY;
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? silentLogger;
    this.checkTarget = options.checkTarget ?? ((url, policy) => assertWebhookTarget(url, policy));
    this.secrets = options.secrets;
    this.secretOverlapMs = options.secretOverlapMs ?? DEFAULT_SECRET_OVERLAP_MS;
    this.knownSources = options.knownSources ?? (async () => []);
  }

  async enroll(
    command: EnrollWebhookProviderCommand,
    audit?: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    const name = typeof command.name === 'string' ? command.name.trim() : '';
    if (name.length === 0 || name.length > WEBHOOK_PROVIDER_NAME_MAX_LENGTH) {
      throw new WebhookProviderError(
        'invalid_request',
        `The name must have 1 to ${WEBHOOK_PROVIDER_NAME_MAX_LENGTH} characters`,
        'name',
      );
    }
    if (!WEBHOOK_PROVIDER_KINDS.includes(command.kind)) {
      throw new WebhookProviderError(
        'invalid_request',
        `The kind must be one of ${WEBHOOK_PROVIDER_KINDS.join(', ')}`,
        'kind',
      );
    }
    // The filter first: its check is local, the destination's may ask DNS.
    const filter = await this.filterOf(command.filter);
    const destination = await this.destinationOf(command);
    const secret = generateWebhookSecret();
    const id = randomUUID();
    const provider = await this.withAudit<WebhookProviderView>(audit, async (store) => {
      const inserted = await store.insert({
        id,
        name,
        kind: command.kind,
        url: destination.url,
        destinationKind: destination.kind,
        destinationOptions: destination.options,
        destinationCredential:
          destination.credential === null ? null : this.seal(destination.credential, id),
        filter,
        secret: this.seal(secret, id),
        createdAt: this.clock(),
      });
      return {
        result: inserted,
        event: {
          action: 'provider.enrolled',
          target: { type: 'webhook_provider', id },
          details: {
            name,
            kind: command.kind,
            destination: destination.kind,
            url: destination.url,
            filter,
          },
        },
      };
    });
    if (provider === null) throw new Error('The webhook provider was not inserted');
    this.logger.info(
      { providerId: provider.id, name, kind: command.kind, destination: destination.kind },
      'webhook provider enrolled',
    );
    return { provider, secret };
  }

  /** Enrolled providers, newest first, without their secrets. */
  async list(): Promise<WebhookProviderView[]> {
    return this.store.listLive(this.clock());
  }

  /**
   * Replaces the signing secret. Requests are signed with the new one from now on, and also
   * with the replaced one until the overlap ends, so receivers can switch within that window.
   */
  async rotateSecret(
    id: string,
    options: RotateWebhookSecretOptions = {},
    audit?: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    const overlapMs = options.overlapMs ?? this.secretOverlapMs;
    if (!Number.isFinite(overlapMs) || overlapMs < 0) {
      throw new WebhookProviderError(
        'invalid_request',
        'The overlap must be zero or more milliseconds',
        'overlap',
      );
    }
    const secret = generateWebhookSecret();
    const at = this.clock();
    const previousExpiresAt = overlapMs > 0 ? new Date(at.getTime() + overlapMs) : null;
    const provider = await this.withAudit(audit, async (store) => ({
      result: await store.rotateSecret(id, this.seal(secret, id), at, previousExpiresAt),
      event: {
        action: 'provider.secret_rotated',
        target: { type: 'webhook_provider', id },
        details: { previousSecretValidUntil: previousExpiresAt?.toISOString() ?? null },
      },
    }));
    if (!provider) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info(
      { providerId: id, previousSecretValidUntil: previousExpiresAt },
      'webhook provider secret rotated',
    );
    return { provider, secret };
  }

  /**
   * Replaces which notifications a provider receives. Notifications decided from now on are
   * judged by the new filter; deliveries already recorded stay as they are.
   */
  async setFilter(
    id: string,
    input: Record<string, unknown>,
    audit?: AuditContext,
  ): Promise<WebhookProviderView> {
    const filter = await this.filterOf(input);
    const at = this.clock();
    const provider = await this.withAudit(audit, async (store) => {
      const before = await store.findLive(id, at);
      return {
        result: before === null ? null : await store.setFilter(id, filter, at),
        event: {
          action: 'provider.filter_changed',
          target: { type: 'webhook_provider', id },
          details: { before: before?.filter ?? null, after: filter },
        },
      };
    });
    if (!provider) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info({ providerId: id, filter }, 'webhook provider filter changed');
    return provider;
  }

  /**
   * Disables a provider: its pending deliveries and the notifications decided from now on are
   * recorded as skipped (cause `disabled`) until it is enabled. The notifier calls it when a
   * provider crosses its health rules, an admin when an endpoint is known to be down. Returns
   * null when it was disabled already (the first reason stays); throws `not_found` for an
   * unknown or deleted provider.
   */
  async disable(
    id: string,
    reason: string,
    audit: AuditContext,
  ): Promise<WebhookProviderView | null> {
    const at = this.clock();
    const outcome = await this.sql.transaction(async (tx) => {
      const store = new SqlWebhookProviderStore(tx);
      const provider = await store.disable(id, at, reason);
      if (provider === null) return (await store.findLive(id, at)) === null ? 'not_found' : null;
      // Deliveries name their provider by its stored (lower-case) id, whatever case was given.
      const skipped = await skipPendingDeliveries(tx, provider.id, `Provider disabled: ${reason}`);
      await new SqlAuditLog(tx).append({
        action: 'provider.disabled',
        context: audit,
        target: { type: 'webhook_provider', id },
        details: { reason, skippedPending: skipped },
        occurredAt: at,
      });
      return provider;
    });
    if (outcome === 'not_found') {
      throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    }
    if (outcome !== null) this.logger.warn({ providerId: id, reason }, 'webhook provider disabled');
    return outcome;
  }

  /**
   * Enables a provider (an enabled one stays as it is) and, given `recoverSince`, queues again
   * its dead deliveries and those skipped while it was disabled, created since then: with their
   * ids, in the order they were created. Both are audited in one transaction with the change.
   */
  async enable(
    id: string,
    options: EnableProviderOptions,
    audit: AuditContext,
  ): Promise<EnabledProvider> {
    const at = this.clock();
    const { recoverSince } = options;
    if (recoverSince !== undefined && Number.isNaN(recoverSince.getTime())) {
      throw new WebhookProviderError(
        'invalid_request',
        'Recover since: not a time',
        'recoverSince',
      );
    }
    if (recoverSince !== undefined && recoverSince > at) {
      throw new WebhookProviderError(
        'invalid_request',
        'Recover since: the time is in the future',
        'recoverSince',
      );
    }
    const enabled = await this.sql.transaction(async (tx) => {
      const changed = await new SqlWebhookProviderStore(tx).enable(id, at);
      if (changed === null) return null;
      const audits = new SqlAuditLog(tx);
      const target = { type: 'webhook_provider', id };
      if (changed.wasDisabled) {
        await audits.append({ action: 'provider.enabled', context: audit, target, occurredAt: at });
      }
      let recovered = 0;
      if (recoverSince !== undefined) {
        recovered = await recoverDeliveries(tx, changed.provider.id, recoverSince);
        await audits.append({
          action: 'deliveries.recovered',
          context: audit,
          target,
          details: { since: recoverSince.toISOString(), recovered },
          occurredAt: at,
        });
      }
      return { provider: changed.provider, recovered };
    });
    if (!enabled) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info(
      { providerId: id, recovered: enabled.recovered },
      recoverSince === undefined
        ? 'webhook provider enabled'
        : 'webhook provider deliveries recovered',
    );
    return enabled;
  }

  /** Live providers that are disabled, the longest-disabled first. */
  listDisabled(): Promise<WebhookProviderView[]> {
    return this.store.listDisabled(this.clock());
  }

  /** Live, enabled providers whose counters say they have been failing (the health sweep's). */
  healthCandidates(): Promise<ProviderHealthCandidate[]> {
    return this.store.healthCandidates();
  }

  /** Deletes a provider: pending deliveries to it stop, and it can no longer be selected. */
  async delete(id: string, audit?: AuditContext): Promise<void> {
    const deleted = await this.withAudit(audit, async (store) => ({
      result: (await store.markDeleted(id, this.clock())) ? true : null,
      event: { action: 'provider.deleted', target: { type: 'webhook_provider', id } },
    }));
    if (!deleted) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info({ providerId: id }, 'webhook provider deleted');
  }

  /**
   * The providers behind `ids` as the notifier needs them, deleted ones flagged, with their
   * secrets opened: the current one, and the replaced one while it still signs.
   */
  async targets(ids: readonly string[]): Promise<Map<string, WebhookProviderTarget>> {
    const now = this.clock();
    const rows = await this.store.secretsOf(ids);
    return new Map(
      rows.map((row) => {
        const target: WebhookProviderTarget = {
          id: row.id,
          name: row.name,
          destination: this.openDestination(row),
          url: row.url,
          filter: row.filter,
          secret: this.open(row.secret, row.id),
          deleted: row.deleted,
          disabled: row.disabled,
        };
        if (
          row.previousSecret !== null &&
          row.previousSecretExpiresAt !== null &&
          row.previousSecretExpiresAt > now
        ) {
          target.previousSecret = this.open(row.previousSecret, row.id);
        }
        return [row.id, target];
      }),
    );
  }

  /** A filter as entered, checked field by field; its fields are reported as `filter.<name>`. */
  private async filterOf(input: unknown): Promise<ProviderFilter> {
    const names = (input as { sources?: unknown } | null | undefined)?.sources;
    const known = Array.isArray(names) && names.length > 0 ? await this.knownSources() : [];
    const checked = validateProviderFilter(input, known);
    if (checked.ok) return checked.value;
    const errors = checked.errors.map((error) => ({ ...error, field: `filter.${error.field}` }));
    throw new WebhookProviderError('invalid_request', errors[0].message, errors[0].field, errors);
  }

  /**
   * The destination of an enrollment, checked: a `webhook` URL as before (length, and the SSRF
   * policy with DNS); Slack, Teams and PagerDuty field by field for their kind. Their hosts are
   * the services' own, fixed by that check, so no DNS is asked here; the notifier still applies
   * the policy to the address it connects to. The credential is what gets sealed.
   */
  private async destinationOf(command: EnrollWebhookProviderCommand): Promise<{
    kind: DestinationKind;
    url: string;
    options: Record<string, unknown>;
    credential: string | null;
  }> {
    const raw = command.destination ?? {};
    const kind = raw.kind ?? DEFAULT_DESTINATION_KIND;
    if (kind === 'webhook') {
      const url = typeof command.url === 'string' ? command.url.trim() : '';
      if (url.length === 0 || url.length > WEBHOOK_URL_MAX_LENGTH) {
        throw new WebhookProviderError(
          'invalid_request',
          `The URL must have 1 to ${WEBHOOK_URL_MAX_LENGTH} characters`,
          'url',
        );
      }
      try {
        await this.checkTarget(url, this.policy);
      } catch (error) {
        if (error instanceof WebhookTargetError) {
          throw new WebhookProviderError('target_refused', error.message, 'url');
        }
        throw error;
      }
      return { kind: 'webhook', url, options: {}, credential: null };
    }
    const url = typeof command.url === 'string' ? command.url.trim() : command.url;
    const checked = validateDestinationConfig({ ...raw, url });
    if (!checked.ok) {
      const [first] = checked.errors;
      throw new WebhookProviderError(
        'invalid_request',
        first.field === '' ? `The destination ${first.message}` : first.message,
        first.field || 'kind',
        checked.errors,
      );
    }
    const config = checked.value;
    switch (config.kind) {
      case 'webhook':
        // validateDestinationConfig gives `webhook` only for kind `webhook`, handled above.
        throw new Error('unreachable');
      case 'slack':
      case 'teams':
        return {
          kind: config.kind,
          url: withoutCredential(config.url),
          options: {},
          credential: config.url,
        };
      case 'pagerduty':
        return {
          kind: 'pagerduty',
          url: destinationUrl(config),
          options: {
            severityMapping: config.severityMapping,
            source: config.source,
            region: config.region,
          },
          credential: config.routingKey,
        };
    }
  }

  /** The destination the notifier sends to, its credential opened. */
  private openDestination(row: StoredProviderSecrets): DestinationConfig {
    const credential = () => {
      if (row.destinationCredential === null) {
        throw new Error(`Webhook provider ${row.id} has no ${row.destinationKind} credential`);
      }
      return this.open(row.destinationCredential, row.id);
    };
    switch (row.destinationKind) {
      case 'webhook':
        return { kind: 'webhook', url: row.url };
      case 'slack':
      case 'teams':
        return { kind: row.destinationKind, url: credential() };
      case 'pagerduty': {
        const options = row.destinationOptions as Omit<
          Extract<DestinationConfig, { kind: 'pagerduty' }>,
          'kind' | 'routingKey'
        >;
        return { kind: 'pagerduty', routingKey: credential(), ...options };
      }
    }
  }

  private seal(secret: string, id: string): string {
    return this.secrets ? this.secrets.seal(secret, sealingContext(TABLE, id)) : secret;
  }

  private open(stored: string, id: string): string {
    if (!isSealed(stored)) return stored;
    if (!this.secrets) {
      throw new SecretsKeyError(
        `The secret of webhook provider ${id} is sealed, and this process has no secrets key`,
      );
    }
    return this.secrets.open(stored, sealingContext(TABLE, id));
  }

  /**
   * Runs a change; with an audit context, in one transaction with its audit event, so an
   * audited change is never without its event. A null result means nothing changed: no event.
   */
  private async withAudit<T>(
    audit: AuditContext | undefined,
    change: (store: SqlWebhookProviderStore) => Promise<{
      result: T | null;
      event: Omit<NewAuditEvent, 'context' | 'occurredAt'>;
    }>,
  ): Promise<T | null> {
    if (audit === undefined) return (await change(this.store)).result;
    return this.sql.transaction(async (tx) => {
      const { result, event } = await change(new SqlWebhookProviderStore(tx));
      if (result !== null) {
        await new SqlAuditLog(tx).append({ ...event, context: audit, occurredAt: this.clock() });
      }
      return result;
    });
  }
}
