import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { type Command } from 'commander';
import { decodeKeyText } from '@vigil/config';
import {
  SecretBox,
  SqlAuditLog,
  readKeyFile,
  resealStoredSecrets,
  type LoadedSecretBox,
} from '@vigil/control-plane';
import type { CliIo } from './cli-io';
import { UsageError } from './parse-args';
import { withControlPlane } from './with-control-plane';

interface RotateKeyOptions {
  newKeyFile?: string;
  newKeyEnv?: string;
}

function newKeyFrom(options: RotateKeyOptions, io: CliIo): { key: Buffer; file?: string } {
  if ((options.newKeyFile === undefined) === (options.newKeyEnv === undefined)) {
    throw new UsageError(
      'Give the new key with one of --new-key-file <path> and --new-key-env <VAR>',
    );
  }
  if (options.newKeyFile !== undefined) {
    return { key: readKeyFile(options.newKeyFile, '--new-key-file'), file: options.newKeyFile };
  }
  const variable = options.newKeyEnv!;
  const text = io.env[variable];
  if (text === undefined || text === '') {
    throw new UsageError(`--new-key-env: the variable ${variable} is not set`);
  }
  const key = decodeKeyText(text);
  if (key === null) {
    throw new UsageError(
      `--new-key-env: ${variable} must be 32 bytes in base64 (44 characters) or hex (64 characters)`,
    );
  }
  return { key };
}

/** What the operator must change so the apps use the new key, by where the old one came from. */
function nextSteps(old: LoadedSecretBox, newKey: { file?: string }, replaced: boolean): string[] {
  if (replaced) {
    return [
      `The embedded key file ${old.file} now holds the new key; the old one is kept in`,
      `${old.file}.old for backups made before now. Start Vigil again.`,
    ];
  }
  const source = newKey.file ?? 'the new key';
  switch (old.source) {
    case 'VIGIL_SECRETS_KEY':
      return [
        `Set VIGIL_SECRETS_KEY to the new key (${source}) for every app and the CLI, and`,
        'restart them: until then, deliveries fail and are retried.',
      ];
    case 'VIGIL_SECRETS_KEY_FILE':
      return [
        `Point VIGIL_SECRETS_KEY_FILE at ${source} (or put it in place of ${old.file}) for every`,
        'app and the CLI, and restart them: until then, deliveries fail and are retried.',
      ];
    case 'data folder':
      return [`Set VIGIL_SECRETS_KEY_FILE to ${source} and start Vigil again.`];
  }
}

/** `vigil secrets rotate-key`: moves every stored secret to a new key in one transaction. */
export function registerSecretsCommands(program: Command, io: CliIo): void {
  const secrets = program
    .command('secrets')
    .description('Manage the key that encrypts webhook signing secrets at rest');
  secrets
    .command('rotate-key')
    .description(
      'Re-encrypt every stored secret under a new key (the current key comes from the usual ' +
        'configuration), all or nothing',
    )
    .option('--new-key-file <path>', 'a file holding the new key (base64 or hex, mode 0600)')
    .option('--new-key-env <VAR>', 'an environment variable holding the new key')
    .action(async (options: RotateKeyOptions) => {
      const newKey = newKeyFrom(options, io);
      await withControlPlane(io, async (cp) => {
        const old = cp.secrets();
        const next = new SecretBox(newKey.key);
        const report = await resealStoredSecrets(cp.sql, old.box, next);
        await new SqlAuditLog(cp.sql).append({
          action: 'secrets.key_rotated',
          context: cp.operator,
          details: { fromKeyId: old.box.keyId, toKeyId: next.keyId, resealed: report.resealed },
        });
        // The embedded mode's generated key file is the process's own: put the new key there.
        const replaced = old.source === 'data folder' && old.file !== undefined;
        if (old.source === 'data folder' && old.file !== undefined)
          replaceKeyFile(old.file, newKey.key);
        io.stdout.write(
          [
            `Re-encrypted ${report.resealed} stored secret(s) from key ${old.box.keyId} to key ${next.keyId}` +
              (report.alreadyNew > 0 ? ` (${report.alreadyNew} already under it)` : '') +
              '.',
            ...nextSteps(old, newKey, replaced),
            '',
          ].join('\n'),
        );
      });
    });
}

function replaceKeyFile(file: string, key: Buffer): void {
  const staged = `${file}.new`;
  writeFileSync(staged, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(staged, 0o600);
  renameSync(file, `${file}.old`);
  renameSync(staged, file);
}
