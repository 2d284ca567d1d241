import { silentLogger, type ControlPlaneLogger, type SqlExecutor } from '../sql/sql-client';
import { SqlWebhookProviderStore } from './sql-webhook-provider-store';
import {
  WEBHOOK_PROVIDER_KINDS,
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type EnrollWebhookProviderCommand,
  type WebhookProviderTarget,
  type WebhookProviderView,
  type WebhookProviderWithSecret,
} from './webhook-provider';
import { WebhookProviderError } from './webhook-provider-error';
import { generateWebhookSecret } from './webhook-secret';
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
}

/**
 * Webhook integrations of SPEC §2.5: enroll (the signing secret is shown once), list (never
 * the secret), rotate the secret (the new one shown once), delete. A URL is checked against the
 * SSRF policy here and again by the notifier at every send, since DNS can change in between.
 */
export class WebhookProviderService {
  private readonly store: SqlWebhookProviderStore;
  private readonly policy: WebhookTargetPolicy;
  private readonly clock: () => Date;
  private readonly logger: ControlPlaneLogger;
  private readonly checkTarget: (url: string, policy: WebhookTargetPolicy) => Promise<unknown>;

  constructor(sql: SqlExecutor, options: WebhookProviderServiceOptions = {}) {
    this.store = new SqlWebhookProviderStore(sql);
    this.policy = options.policy ?? PUBLIC_TARGETS_ONLY;
    this.clock = options.clock ?? (() => new Date());
    this.logger = options.logger ?? silentLogger;
    this.checkTarget = options.checkTarget ?? ((url, policy) => assertWebhookTarget(url, policy));
  }

  async enroll(command: EnrollWebhookProviderCommand): Promise<WebhookProviderWithSecret> {
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
    const secret = generateWebhookSecret();
    const provider = await this.store.insert({
      name,
      kind: command.kind,
      url,
      secret,
      createdAt: this.clock(),
    });
    this.logger.info(
      { providerId: provider.id, name, kind: command.kind },
      'webhook provider enrolled',
    );
    return { provider, secret };
  }

  /** Enrolled providers, newest first, without their secrets. */
  async list(): Promise<WebhookProviderView[]> {
    return this.store.listLive();
  }

  /** Replaces the signing secret; requests signed from now on use the new one. */
  async rotateSecret(id: string): Promise<WebhookProviderWithSecret> {
    const secret = generateWebhookSecret();
    const provider = await this.store.replaceSecret(id, secret, this.clock());
    if (!provider) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info({ providerId: id }, 'webhook provider secret rotated');
    return { provider, secret };
  }

  /** Deletes a provider: pending deliveries to it stop, and it can no longer be selected. */
  async delete(id: string): Promise<void> {
    const deleted = await this.store.markDeleted(id, this.clock());
    if (!deleted) throw new WebhookProviderError('not_found', `No webhook provider with id ${id}`);
    this.logger.info({ providerId: id }, 'webhook provider deleted');
  }

  /** The providers behind `ids` as the notifier needs them, deleted ones flagged. */
  async targets(ids: readonly string[]): Promise<Map<string, WebhookProviderTarget>> {
    const rows = await this.store.targets(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }
}
