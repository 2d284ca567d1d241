import { runCli } from './cli';

// The operator CLI: `node dist/apps/cli/src/main.js token create|list|delete ...`.
void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
