import { type Command, InvalidArgumentError } from 'commander';
import { AUDIT_PAGE_MAX, SqlAuditLog, type AuditFilter } from '@vigil/control-plane';
import type { CliIo } from './cli-io';
import { formatAuditList } from './format';
import { UsageError, parseInstantArg } from './parse-args';
import { withControlPlane } from './with-control-plane';

interface AuditListOptions {
  since?: Date;
  until?: Date;
  action?: string;
  actor?: string;
  target?: string;
  limit: number;
  cursor?: string;
  json?: boolean;
}

function instantOption(input: string): Date {
  try {
    return parseInstantArg(input, new Date());
  } catch (error) {
    if (error instanceof UsageError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

function limitOption(input: string): number {
  const limit = Number(input);
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${AUDIT_PAGE_MAX}`);
  }
  return limit;
}

/** `vigil audit list`: the audit log for operators, newest first. */
export function registerAuditCommands(program: Command, io: CliIo): void {
  const audit = program.command('audit').description('Read the audit log (append-only)');
  audit
    .command('list')
    .description('List audit events, newest first')
    .option(
      '--since <when>',
      'from this instant: 7d, 12h, 30m ago, or an ISO 8601 date',
      instantOption,
    )
    .option('--until <when>', 'before this instant (same forms as --since)', instantOption)
    .option('--action <action>', 'an action (user.disabled) or a prefix ending in a dot (user.)')
    .option('--actor <who>', 'the actor: an email, an OS account, a token name, or an id')
    .option('--target <type:id>', 'the target, e.g. user:<id> or webhook_provider:<id>')
    .option('--limit <n>', `events per page, 1 to ${AUDIT_PAGE_MAX}`, limitOption, 50)
    .option('--cursor <cursor>', 'the next page, as printed after the previous one')
    .option('--json', 'print the events and the next cursor as JSON')
    .action(async (options: AuditListOptions) => {
      const [targetType, ...targetId] = options.target?.split(':') ?? [];
      const filter: AuditFilter = {
        since: options.since,
        until: options.until,
        action: options.action,
        actor: options.actor,
        targetType: targetType || undefined,
        targetId: targetId.length > 0 ? targetId.join(':') : undefined,
        limit: options.limit,
        cursor: options.cursor,
      };
      await withControlPlane(io, async ({ sql }) => {
        const page = await new SqlAuditLog(sql).list(filter);
        if (options.json) {
          io.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
          return;
        }
        io.stdout.write(`${formatAuditList(page.events)}\n`);
        if (page.nextCursor !== null) {
          io.stdout.write(`\nMore events: add --cursor ${page.nextCursor}\n`);
        }
      });
    });
}
