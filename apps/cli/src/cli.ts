import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, DataFolderInUseError } from '@vigil/config';
import {
  type ApiTokenService,
  AuditError,
  MigrationError,
  SecretOpenError,
  SecretsKeyError,
  SqlAuditLog,
  SqlUnavailableError,
  TokenError,
  UserError,
  WebhookProviderError,
  createApiTokenService,
  describePermissions,
  type AuditContext,
} from '@vigil/control-plane';
import { registerAuditCommands } from './audit-command';
import type { CliIo } from './cli-io';
import { isElasticsearchUnavailable } from '@vigil/search';
import { CreateApiToken, DeleteApiToken, WorkspaceError } from '@vigil/workspace';
import { registerDetectionCommands } from './detection-command';
import { formatTokenList } from './format';
import { registerMigrateCommand } from './migrate-command';
import { PROVIDER_OPTION_OF_FIELD, registerProviderCommands } from './provider-command';
import { registerSecretsCommands } from './secrets-command';
import { USER_OPTION_OF_FIELD, registerUserCommands } from './user-command';
import { withControlPlane } from './with-control-plane';
import {
  type ExpiryChoice,
  type ScopeGrant,
  UsageError,
  buildPermissions,
  parseExpiresArg,
  parsePresetArg,
  parseScopeArg,
} from './parse-args';

/** Exit codes: 0 done, 1 the operation failed, 2 bad input or configuration. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Maps the token service's field names to the options an operator typed. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  name: '--name',
  permissions: '--scope/--preset',
  expiresAt: '--expires',
  expiresInDays: '--expires',
  createdBy: '--created-by',
};

function argParser<T>(parse: (input: string) => T) {
  return (input: string): T => {
    try {
      return parse(input);
    } catch (error) {
      if (error instanceof UsageError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

/**
 * Runs `work` with the token service, the audit log and the operator's audit context (the OS
 * account running the command).
 */
async function withTokenService<T>(
  io: CliIo,
  work: (tokens: ApiTokenService, log: SqlAuditLog, operator: AuditContext) => Promise<T>,
): Promise<T> {
  return withControlPlane(io, async ({ sql, operator }) => {
    const tokens = createApiTokenService(sql);
    const result = await work(tokens, new SqlAuditLog(sql), operator);
    await tokens.drain();
    return result;
  });
}

interface CreateOptions {
  name: string;
  scope: ScopeGrant[];
  preset?: ReturnType<typeof parsePresetArg>;
  expires?: ExpiryChoice;
  createdBy: string;
  json?: boolean;
}

function buildProgram(io: CliIo): Command {
  const program = new Command('vigil')
    .description('Vigil operator command line')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');
  const token = program
    .command('token')
    .description('Manage API tokens (the value is shown once, at creation)');

  token
    .command('create')
    .description('Create an API token and print its value once')
    .requiredOption('--name <name>', 'display name, 1 to 100 characters')
    .option(
      '--scope <scope:level>',
      'grant a scope: none, read or write (repeatable), e.g. detection:read',
      (input: string, previous: ScopeGrant[]) => [...previous, argParser(parseScopeArg)(input)],
      [] as ScopeGrant[],
    )
    .option('--preset <level>', 'apply one level to every scope first', argParser(parsePresetArg))
    .option(
      '--expires <when>',
      'days from now (30d) or an ISO 8601 date (2026-03-01, 2026-03-01T09:00:00Z); default 90d, max 365d',
      argParser(parseExpiresArg),
    )
    .option('--created-by <who>', 'who is creating it, kept with the token', 'cli')
    .option('--json', 'print the token and its value as JSON')
    .action(async (options: CreateOptions) => {
      await withTokenService(io, async (tokens, log, operator) => {
        const { token: created, value } = await new CreateApiToken(tokens, log).execute(
          {
            name: options.name,
            permissions: buildPermissions(options.preset, options.scope),
            ...options.expires,
            createdBy: options.createdBy,
            now: new Date(),
          },
          operator,
        );
        if (options.json) {
          io.stdout.write(`${JSON.stringify({ ...created, value }, null, 2)}\n`);
          return;
        }
        io.stdout.write(
          [
            `Created API token ${created.id} "${created.name}"`,
            `Scopes:     ${describePermissions(created.permissions).join(', ')}`,
            `Expires at: ${created.expiresAt.toISOString()}`,
            '',
            'Token value (shown once; it cannot be retrieved later):',
            '',
            `  ${value}`,
            '',
          ].join('\n'),
        );
      });
    });

  token
    .command('list')
    .description('List API tokens that are not deleted')
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }) => {
      await withTokenService(io, async (tokens) => {
        const list = await tokens.listTokens();
        io.stdout.write(
          options.json ? `${JSON.stringify(list, null, 2)}\n` : `${formatTokenList(list)}\n`,
        );
      });
    });

  token
    .command('delete')
    .description('Delete an API token; requests made with it are rejected at once')
    .argument('<id>', 'the token id shown by "token list"')
    .action(async (id: string) => {
      await withTokenService(io, async (tokens, log, operator) => {
        await new DeleteApiToken(tokens, log).execute({ tokenId: id }, operator);
        io.stdout.write(`Deleted API token ${id}. Requests made with it are now rejected.\n`);
      });
    });

  registerUserCommands(program, io);
  registerMigrateCommand(program, io);
  registerAuditCommands(program, io);
  registerSecretsCommands(program, io);
  registerDetectionCommands(program, io);
  registerProviderCommands(program, io);
  return program;
}

function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof ConfigError) return { code: EXIT_USAGE, message: error.message };
  if (error instanceof TokenError) {
    const lines = error.details.map(
      (d) => `  - ${OPTION_OF_FIELD[d.field.split('.')[0]] ?? d.field}: ${d.message}`,
    );
    return {
      code: error.code === 'invalid_request' ? EXIT_USAGE : EXIT_FAILED,
      message: [error.message, ...(error.code === 'invalid_request' ? lines : [])].join('\n'),
    };
  }
  if (error instanceof UserError) {
    const lines = error.details.map(
      (d) => `  - ${USER_OPTION_OF_FIELD[d.field] ?? d.field}: ${d.message}`,
    );
    return {
      code: error.code === 'invalid_request' ? EXIT_USAGE : EXIT_FAILED,
      message: [error.message, ...lines].join('\n'),
    };
  }
  if (error instanceof UsageError || error instanceof SecretsKeyError) {
    return { code: EXIT_USAGE, message: error.message };
  }
  if (error instanceof AuditError) {
    return { code: EXIT_USAGE, message: `--${error.field}: ${error.message}` };
  }
  if (error instanceof WebhookProviderError) {
    if (error.code !== 'invalid_request') return { code: EXIT_FAILED, message: error.message };
    const option = PROVIDER_OPTION_OF_FIELD[error.field ?? ''] ?? error.field;
    return {
      code: EXIT_USAGE,
      // The service words a refusal for a form ("Recover since: …"); here the option names it.
      message:
        option === undefined
          ? error.message
          : `${option}: ${error.message.replace(/^[A-Z][\w ]*: /, '')}`,
    };
  }
  if (error instanceof SecretOpenError) return { code: EXIT_FAILED, message: error.message };
  if (error instanceof WorkspaceError) return { code: EXIT_FAILED, message: error.message };
  if (error instanceof SqlUnavailableError) {
    return { code: EXIT_FAILED, message: `Cannot reach the database: ${error.message}` };
  }
  if (error instanceof MigrationError) return { code: EXIT_FAILED, message: error.message };
  if (isElasticsearchUnavailable(error)) {
    const reason = error instanceof Error ? error.message : String(error);
    return { code: EXIT_FAILED, message: `Cannot reach Elasticsearch: ${reason}` };
  }
  if (error instanceof DataFolderInUseError) return { code: EXIT_FAILED, message: error.message };
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { code: EXIT_FAILED, message: `Unexpected failure: ${detail}` };
}

/** Runs one command line (without `node main.js`) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help / version).
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    const { code, message } = describeFailure(error);
    io.stderr.write(`error: ${message}\n`);
    return code;
  }
}
