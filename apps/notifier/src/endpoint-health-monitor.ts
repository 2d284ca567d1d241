import type { Logger } from '@vigil/config';
import {
  insertDeliveries,
  type AuditContext,
  type SqlClient,
  type SqlUserStore,
  type WebhookProviderService,
  type WebhookProviderView,
} from '@vigil/control-plane';
import {
  describeHealthVerdict,
  healthVerdict,
  type EndpointHealthRules,
} from '@vigil/notification-policy';
import { providerDisabledNotice } from './provider-disabled-notice';

export interface EndpointHealthMonitorOptions {
  sql: SqlClient;
  providers: WebhookProviderService;
  users: SqlUserStore;
  rules: EndpointHealthRules;
  appUrl: string;
  intervalMs: number;
  /** Called when notices were queued, so the worker pool sends them at once. */
  onNoticesQueued: () => void;
  logger: Logger;
  clock?: () => Date;
}

/** The notifier acts on its own here: the audit log names it as the service. */
const SYSTEM: AuditContext = {
  actor: { type: 'system', id: null, label: 'notifier (endpoint health)' },
};

/**
 * Endpoint health (issue #20 item 4): every interval, asks the health rules about each provider
 * that has been failing (the counters every recorded attempt moves) and disables those past
 * them. A provider disabled here is audited, and every active admin is emailed (a `notice`
 * delivery, retried like any). Several notifiers may sweep at once: only the one whose disable
 * changed the provider emails.
 */
export class EndpointHealthMonitor {
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly options: EndpointHealthMonitorOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      this.turn = this.turn.then(() => this.sweep().then(() => undefined));
    }, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.turn;
  }

  /** Disables the providers past the rules now; returns those it disabled. */
  async sweep(): Promise<WebhookProviderView[]> {
    const { providers, rules, logger } = this.options;
    const now = (this.options.clock ?? (() => new Date()))();
    const disabled: WebhookProviderView[] = [];
    try {
      for (const candidate of await providers.healthCandidates()) {
        const verdict = healthVerdict(candidate.health, now, rules);
        if (!verdict.disable) continue;
        const provider = await providers.disable(
          candidate.id,
          describeHealthVerdict(verdict),
          SYSTEM,
        );
        if (provider === null) continue;
        disabled.push(provider);
        logger.warn(
          { providerId: provider.id, rule: verdict.rule },
          'webhook provider disabled by its health rules',
        );
        await this.notifyAdmins(provider);
      }
    } catch (error) {
      logger.error({ err: error }, 'could not check endpoint health');
    }
    return disabled;
  }

  private async notifyAdmins(provider: WebhookProviderView): Promise<void> {
    const { sql, users, appUrl, onNoticesQueued } = this.options;
    const admins = await users.activeAdminEmails();
    const notices = admins.map((to) => providerDisabledNotice(provider, to, appUrl));
    if (notices.length === 0) return;
    await sql.transaction((tx) => insertDeliveries(tx, notices));
    onNoticesQueued();
  }
}
