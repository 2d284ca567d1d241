import { type Command } from 'commander';
import { loadConfig } from '@vigil/config';
import { openSqlClient, createUserService, roleLabel, runMigrations } from '@vigil/control-plane';
import type { CliIo } from './cli';

/** Maps the user rules' field names to the options an operator typed. */
export const USER_OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  email: '--email',
  name: '--name',
  role: '--role',
  password: '--password-stdin',
};

/** The password as piped in: one trailing line break is the pipe's, not the password's. */
export function passwordFromStdin(input: string): string {
  return input.replace(/\r?\n$/, '');
}

/** `vigil user create`: users of the web application (the first admin, or more later). */
export function registerUserCommands(program: Command, io: CliIo): void {
  const user = program.command('user').description('Manage users of the web application');
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
      const config = loadConfig(['database', 'runtime'], io.env);
      const sql = await openSqlClient({
        databaseUrl: config.database.DATABASE_URL,
        poolSize: 2,
        dataDir: config.database.VIGIL_DATA_DIR,
        applicationName: 'vigil-cli',
      });
      try {
        await runMigrations(sql);
        const created = await createUserService(sql).createUser({ ...options, password });
        io.stdout.write(
          `Created user ${created.id} ${created.email} (${roleLabel(created.role)}).\n`,
        );
      } finally {
        await sql.close();
      }
    });
}
