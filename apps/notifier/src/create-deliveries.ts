import type { NotificationCommand } from '@vigil/contracts';
import type {
  DigestEntry,
  NewDelivery,
  SqlClient,
  SqlDeliveryStore,
  SqlDigestStore,
  WebhookProviderService,
} from '@vigil/control-plane';
import type { DirectDispatch } from './direct-dispatch';
import { planDeliveries, providerIdsIn } from './plan-deliveries';

/**
 * The use case behind the command consumer: render every command's deliveries and store them
 * with its digest lines, all or nothing. Re-runnable: a replayed command finds its rows
 * already there and adds nothing.
 */
export class CreateDeliveries {
  constructor(
    private readonly sql: SqlClient,
    private readonly store: SqlDeliveryStore,
    private readonly digests: SqlDigestStore,
    private readonly providers: WebhookProviderService,
    private readonly appUrl: string,
    /** Takes the deliveries it has room for: inserted leased and sent without a claim. */
    private readonly dispatch?: DirectDispatch,
  ) {}

  async execute(commands: readonly NotificationCommand[]) {
    const targets = await this.providers.targets(providerIdsIn(commands));
    const deliveries: NewDelivery[] = [];
    const digestEntries: DigestEntry[] = [];
    const rejected: { index: number; reason: string }[] = [];
    commands.forEach((command, index) => {
      try {
        const plan = planDeliveries(command, targets, this.appUrl);
        deliveries.push(...plan.deliveries);
        digestEntries.push(...plan.digestEntries);
      } catch (error) {
        rejected.push({ index, reason: error instanceof Error ? error.message : String(error) });
      }
    });
    const reservation = this.dispatch?.reserve(deliveries);
    const rows = reservation?.deliveries ?? deliveries;
    let created;
    try {
      // Immediate-mode commands have no digest lines: their deliveries go in on their own.
      created =
        digestEntries.length === 0
          ? await this.store.insertAlone(rows)
          : await this.sql.transaction(async (tx) => {
              const inserted = await this.store.insert(tx, rows);
              await this.digests.upsertDigestEntries(tx, digestEntries);
              return inserted;
            });
    } catch (error) {
      reservation?.cancel();
      throw error;
    }
    // Committed: the leased ones are sent now (a crash from here leaves them to their lease).
    reservation?.settle(created.leased);
    return { rejected, created };
  }
}
