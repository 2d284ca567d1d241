import { type Command, InvalidArgumentError } from 'commander';
import { WebhookProviderService, type WebhookProviderView } from '@vigil/control-plane';
import {
  DisableWebhookProvider,
  EnableWebhookProvider,
  ListDisabledProviders,
} from '@vigil/workspace';
import type { CliIo } from './cli-io';
import { formatInstant, formatTable } from './format';
import { UsageError, parseInstantArg } from './parse-args';
import { withControlPlane, type ControlPlane } from './with-control-plane';

/** Maps the provider service's field names to the options an operator typed. */
export const PROVIDER_OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  recoverSince: '--since',
};

function sinceOption(input: string): Date {
  try {
    return parseInstantArg(input, new Date());
  } catch (error) {
    if (error instanceof UsageError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** Enabled, disabled (since when, why) or failing (since when, how many dead in a row). */
export function providerState(provider: WebhookProviderView): string {
  if (provider.disabled !== undefined) {
    return `disabled since ${formatInstant(provider.disabled.at)}: ${provider.disabled.reason}`;
  }
  const { failingSince, deadInARow } = provider.health;
  const failing = [
    ...(failingSince === null ? [] : [`failing since ${formatInstant(failingSince)}`]),
    ...(deadInARow === 0 ? [] : [`${deadInARow} dead in a row`]),
  ];
  return failing.length === 0 ? 'enabled' : failing.join(', ');
}

export function formatProviderList(providers: readonly WebhookProviderView[]): string {
  if (providers.length === 0) return 'No webhook providers.';
  return formatTable(
    ['ID', 'NAME', 'DESTINATION', 'STATE'],
    providers.map((p) => [p.id, p.name, p.destination, providerState(p)]),
  );
}

const named = (provider: WebhookProviderView) => `${provider.id} "${provider.name}"`;
const deliveries = (count: number) => (count === 1 ? '1 delivery' : `${count} deliveries`);

function withProviders<T>(
  io: CliIo,
  work: (providers: WebhookProviderService, cp: ControlPlane) => Promise<T>,
): Promise<T> {
  return withControlPlane(io, (cp) => work(new WebhookProviderService(cp.sql), cp));
}

/**
 * `vigil providers …`: the webhook providers' health for operators. A provider the notifier
 * disabled for failing records its notifications as skipped; `recover` enables it and queues
 * again what it missed, in the order it was created. Every change is audited with the OS account.
 */
export function registerProviderCommands(program: Command, io: CliIo): void {
  const providers = program
    .command('providers')
    .description('Look after webhook providers: their health, disabling and recovering them');
  const say = (lines: string[]) => io.stdout.write(`${lines.join('\n')}\n`);

  providers
    .command('list')
    .description('List webhook providers with their destination and state')
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }) => {
      await withProviders(io, async (service) => {
        const list = await service.list();
        io.stdout.write(
          options.json ? `${JSON.stringify(list, null, 2)}\n` : `${formatProviderList(list)}\n`,
        );
      });
    });

  providers
    .command('recover')
    .description(
      'Enable a provider if it is disabled and queue again every delivery to it that died, or ' +
        'was skipped while it was disabled, since a time (same ids, in the order they were created)',
    )
    .argument('[id]', 'the provider id shown by "providers list"')
    .requiredOption(
      '--since <time>',
      'deliveries created from this time: 24h, 3d, 90m ago, or an ISO 8601 date or date-time',
      sinceOption,
    )
    .option('--all-disabled', 'recover every disabled provider instead of one')
    .action(async (id: string | undefined, options: { since: Date; allDisabled?: boolean }) => {
      if ((id === undefined) === (options.allDisabled !== true)) {
        throw new UsageError('give either a provider id or --all-disabled');
      }
      await withProviders(io, async (service, cp) => {
        const ids =
          id === undefined
            ? (await new ListDisabledProviders(service).execute()).map((p) => p.id)
            : [id.trim().toLowerCase()];
        if (ids.length === 0) {
          say(['No disabled providers.']);
          return;
        }
        const enable = new EnableWebhookProvider(service);
        let total = 0;
        for (const providerId of ids) {
          const { provider, recovered } = await enable.execute(
            { providerId, recoverSince: options.since },
            cp.operator,
          );
          total += recovered;
          say([
            `Provider ${named(provider)} is enabled; ${deliveries(recovered)} since ` +
              `${formatInstant(options.since)} queued again.`,
          ]);
        }
        if (ids.length > 1) say([`${deliveries(total)} queued again in all.`]);
      });
    });

  providers
    .command('disable')
    .description(
      'Disable a provider (an endpoint known to be down): its pending deliveries and new ' +
        'notifications are recorded as skipped until it is enabled, for recover to resend',
    )
    .argument('<id>', 'the provider id shown by "providers list"')
    .option('--reason <text>', 'why, shown with the provider (default: disabled by you)')
    .action(async (id: string, options: { reason?: string }) => {
      await withProviders(io, async (service, cp) => {
        const provider = await new DisableWebhookProvider(service).execute(
          {
            providerId: id.trim().toLowerCase(),
            reason: options.reason ?? '',
            disabledBy: cp.operator.actor.label,
          },
          cp.operator,
        );
        say([`Provider ${named(provider)} is ${providerState(provider)}.`]);
      });
    });

  providers
    .command('enable')
    .description(
      'Enable a provider again; nothing it missed is resent (use "providers recover" for that)',
    )
    .argument('<id>', 'the provider id shown by "providers list"')
    .action(async (id: string) => {
      await withProviders(io, async (service, cp) => {
        const { provider } = await new EnableWebhookProvider(service).execute(
          { providerId: id.trim().toLowerCase() },
          cp.operator,
        );
        say([`Provider ${named(provider)} is enabled.`]);
      });
    });
}
