import { runCli } from './cli';

// The operator CLI: `node dist/apps/cli/src/main.js token create|list|delete ...`,
// `... user create|invite|list|role|disable|enable|delete|reset-password ...`,
// `... audit list --since 7d`, `... secrets rotate-key --new-key-file <path>`, `... migrate`,
// `... detection dry-run <id> [--json]`.
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdin: readStdin,
}).then((code) => {
  process.exitCode = code;
});
