import { HEALTHY, NO_PROVIDER_FILTER, type ProviderFilter } from '@vigil/notification-policy';
import {
  WebhookProviderError,
  type AuditContext,
  type EnableProviderOptions,
  type EnabledProvider,
  type EnrollWebhookProviderCommand,
  type RotateWebhookSecretOptions,
  type WebhookProviderView,
  type WebhookProviderWithSecret,
} from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';

/**
 * The enrolled providers of the specs; a URL containing `private` is refused as a target. Each
 * change is kept in `audited` with its audit context, as the service records it. Recovering
 * queues again the deliveries set in `recoverable` that were created since the time asked.
 */
export class InMemoryWebhookProviders implements WebhookProviders {
  readonly providers: WebhookProviderView[] = [];
  readonly audited: { action: string; id: string; audit: AuditContext; overlapMs?: number }[] = [];
  /** When each recoverable delivery of a provider was created, by provider id. */
  readonly recoverable = new Map<string, Date[]>();
  private secrets = 0;
  private readonly now: Date;

  constructor(options: { now?: Date } = {}) {
    this.now = options.now ?? new Date('2026-01-02T03:04:05Z');
  }

  /** Enrolls directly, for a spec's starting state. */
  add(name: string, id = `provider-${this.providers.length + 1}`): WebhookProviderView {
    const provider: WebhookProviderView = {
      id,
      name,
      kind: 'custom',
      destination: 'webhook',
      url: `https://hooks.example.com/${id}`,
      filter: NO_PROVIDER_FILTER,
      health: HEALTHY,
      createdAt: new Date(0),
      rotatedAt: null,
    };
    this.providers.push(provider);
    return provider;
  }

  async list(): Promise<WebhookProviderView[]> {
    return [...this.providers];
  }

  async enroll(
    command: EnrollWebhookProviderCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    if (command.url.includes('private')) {
      throw new WebhookProviderError('target_refused', 'a private address', 'url');
    }
    const provider = { ...this.add(command.name), kind: command.kind, url: command.url };
    this.providers[this.providers.length - 1] = provider;
    this.audited.push({ action: 'provider.enrolled', id: provider.id, audit });
    return { provider, secret: this.nextSecret() };
  }

  async rotateSecret(
    id: string,
    options: RotateWebhookSecretOptions,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    const provider = this.providers.find((p) => p.id === id);
    if (provider === undefined) throw new WebhookProviderError('not_found', 'No such provider');
    this.audited.push({
      action: 'provider.secret_rotated',
      id,
      audit,
      overlapMs: options.overlapMs,
    });
    return { provider: { ...provider, rotatedAt: new Date(1) }, secret: this.nextSecret() };
  }

  /** Takes the filter as given, a score typed as text read as a number; checks nothing else. */
  async setFilter(
    id: string,
    filter: Record<string, unknown>,
    audit: AuditContext,
  ): Promise<WebhookProviderView> {
    const at = this.providers.findIndex((p) => p.id === id);
    if (at < 0) throw new WebhookProviderError('not_found', 'No such provider');
    const score = filter.minRiskScore;
    const changed: WebhookProviderView = {
      ...this.providers[at],
      filter: {
        subjects: (filter.subjects as ProviderFilter['subjects'] | undefined) ?? 'all',
        minRiskScore: score === undefined || score === '' ? null : Number(score),
        sources: (filter.sources as string[] | undefined) ?? [],
      },
    };
    this.providers[at] = changed;
    this.audited.push({ action: 'provider.filter_changed', id, audit });
    return changed;
  }

  async disable(
    id: string,
    reason: string,
    audit: AuditContext,
  ): Promise<WebhookProviderView | null> {
    const at = this.indexOf(id);
    if (this.providers[at].disabled !== undefined) return null;
    this.providers[at] = { ...this.providers[at], disabled: { at: this.now, reason } };
    this.audited.push({ action: 'provider.disabled', id, audit });
    return this.providers[at];
  }

  async enable(
    id: string,
    options: EnableProviderOptions,
    audit: AuditContext,
  ): Promise<EnabledProvider> {
    const at = this.indexOf(id);
    const { recoverSince } = options;
    if (recoverSince !== undefined && recoverSince > this.now) {
      throw new WebhookProviderError(
        'invalid_request',
        'Recover since: the time is in the future',
        'recoverSince',
      );
    }
    if (this.providers[at].disabled !== undefined) {
      const { disabled: _disabled, ...enabled } = this.providers[at];
      this.providers[at] = { ...enabled, health: HEALTHY };
      this.audited.push({ action: 'provider.enabled', id, audit });
    }
    if (recoverSince === undefined) return { provider: this.providers[at], recovered: 0 };
    const recovered = (this.recoverable.get(id) ?? []).filter((d) => d >= recoverSince).length;
    this.audited.push({ action: 'deliveries.recovered', id, audit });
    return { provider: this.providers[at], recovered };
  }

  async listDisabled(): Promise<WebhookProviderView[]> {
    return this.providers.filter((p) => p.disabled !== undefined);
  }

  async delete(id: string, audit: AuditContext): Promise<void> {
    const at = this.providers.findIndex((p) => p.id === id);
    if (at < 0) throw new WebhookProviderError('not_found', 'No such provider');
    this.providers.splice(at, 1);
    this.audited.push({ action: 'provider.deleted', id, audit });
  }

  private indexOf(id: string): number {
    const at = this.providers.findIndex((p) => p.id === id);
    if (at < 0) throw new WebhookProviderError('not_found', 'No such provider');
    return at;
  }

  private nextSecret(): string {
    this.secrets += 1;
    return `whsec_${this.secrets}`;
  }
}
