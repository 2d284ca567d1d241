import { type Command } from 'commander';
import {
  UserError,
  createUserService,
  oneTimeLinkUrl,
  roleLabel,
  type OneTimeLink,
  type UserRecord,
  type UserService,
} from '@vigil/control-plane';
import type { CliIo } from './cli-io';
import { CreateUser } from '@vigil/workspace';
import { formatInstant, formatUserList } from './format';
import { withControlPlane, type ControlPlane } from './with-control-plane';

/** Maps the user rules' field names to the options an operator typed. */
export const USER_OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  email: '--email',
  name: '--name',
  role: '--role',
  password: '--password-stdin',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The password as piped in: one trailing line break is the pipe's, not the password's. */
export function passwordFromStdin(input: string): string {
  return input.replace(/\r?\n$/, '');
}

/** The user an operator named by email or id. */
async function userNamed(users: UserService, who: string): Promise<UserRecord> {
  const user = UUID.test(who) ? await users.findById(who) : await users.findByEmail(who);
  if (user === null) {
    throw new UserError(
      'not_found',
      UUID.test(who) ? `No user with id ${who}` : `No user with email ${who.trim().toLowerCase()}`,
    );
  }
  return user;
}

function withUsers<T>(io: CliIo, work: (users: UserService, cp: ControlPlane) => Promise<T>) {
  return withControlPlane(io, (cp) => work(createUserService(cp.sql), cp));
}

function linkLines(link: OneTimeLink, appUrl: string): string[] {
  const what = link.purpose === 'invitation' ? 'Invitation' : 'Password reset';
  return [
    `${what} link for ${link.email} (shown once; valid until ${formatInstant(link.expiresAt)}):`,
    '',
    `  ${oneTimeLinkUrl(appUrl, link)}`,
    '',
  ];
}

/**
 * `vigil user …`: users of the web application, for operators. The same rules as the web
 * application's member pages: the last active admin can never be demoted, disabled or deleted,
 * and a change ends the user's sessions at once. Every change is audited with the OS account.
 */
export function registerUserCommands(program: Command, io: CliIo): void {
  const user = program.command('user').description('Manage users of the web application');
  const say = (lines: string[]) => io.stdout.write(`${lines.join('\n')}\n`);

  user
    .command('create')
    .description('Create a user who signs in to the web application')
    .requiredOption('--email <email>', 'sign-in email (stored lowercased)')
    .requiredOption('--name <name>', 'display name, 1 to 100 characters')
    .requiredOption('--role <role>', 'admin (workspace admin: manages API keys) or member')
    .requiredOption(
      '--password-stdin',
      'read the password (at least 12 characters) from standard input, never from arguments',
    )
    .action(async (options: { email: string; name: string; role: string }) => {
      if (io.stdin === undefined) throw new Error('No standard input to read the password from');
      const password = passwordFromStdin(await io.stdin());
      await withUsers(io, async (users, cp) => {
        const created = await new CreateUser(users).execute({ ...options, password }, cp.operator);
        say([`Created user ${created.id} ${created.email} (${roleLabel(created.role)}).`]);
      });
    });

  user
    .command('invite')
    .description('Create a user without a password and print the link where they choose one')
    .requiredOption('--email <email>', 'sign-in email (stored lowercased)')
    .requiredOption('--name <name>', 'display name, 1 to 100 characters')
    .requiredOption('--role <role>', 'admin or member')
    .action(async (options: { email: string; name: string; role: string }) => {
      await withUsers(io, async (users, cp) => {
        const { user: invited, link } = await users.inviteUser(options, cp.operator);
        say([
          `Invited user ${invited.id} ${invited.email} (${roleLabel(invited.role)}).`,
          ...linkLines(link, cp.config.links.APP_URL),
        ]);
      });
    });

  user
    .command('list')
    .description('List users with their role, status and last sign-in')
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }) => {
      await withUsers(io, async (users) => {
        const list = await users.list();
        io.stdout.write(
          options.json ? `${JSON.stringify(list, null, 2)}\n` : `${formatUserList(list)}\n`,
        );
      });
    });

  user
    .command('role')
    .description('Change the role of a user; their sessions end')
    .argument('<user>', 'email or id')
    .argument('<role>', 'admin or member')
    .action(async (who: string, role: string) => {
      await withUsers(io, async (users, cp) => {
        const changed = await users.changeRole((await userNamed(users, who)).id, role, cp.operator);
        say([`${changed.email} is now ${roleLabel(changed.role)}. Their sessions have ended.`]);
      });
    });

  user
    .command('disable')
    .description('Disable a user: their sessions end and they can no longer sign in')
    .argument('<user>', 'email or id')
    .action(async (who: string) => {
      await withUsers(io, async (users, cp) => {
        const disabled = await users.disable((await userNamed(users, who)).id, cp.operator);
        say([`Disabled ${disabled.email}. Their sessions have ended; sign-in is refused.`]);
      });
    });

  user
    .command('enable')
    .description('Enable a disabled user again')
    .argument('<user>', 'email or id')
    .action(async (who: string) => {
      await withUsers(io, async (users, cp) => {
        const enabled = await users.enable((await userNamed(users, who)).id, cp.operator);
        say([`Enabled ${enabled.email}. They can sign in again.`]);
      });
    });

  user
    .command('delete')
    .description('Delete a user and their sessions (the audit log keeps what they did)')
    .argument('<user>', 'email or id')
    .action(async (who: string) => {
      await withUsers(io, async (users, cp) => {
        const deleted = await users.delete((await userNamed(users, who)).id, cp.operator);
        say([`Deleted user ${deleted.id} ${deleted.email}.`]);
      });
    });

  user
    .command('reset-password')
    .description('Print a one-time link where the user chooses a new password (valid 24 hours)')
    .argument('<user>', 'email or id')
    .action(async (who: string) => {
      await withUsers(io, async (users, cp) => {
        const link = await users.issuePasswordReset((await userNamed(users, who)).id, cp.operator);
        say(linkLines(link, cp.config.links.APP_URL));
      });
    });
}
