import { readFileSync } from 'node:fs';
import { loadConfig } from '@vigil/config';
import { demoKeyFile } from './start-all-in-one';

/**
 * `npm run demo`: sample detections and investigations for the running Vigil (`npm start`).
 * The running process feeds them itself, so this works with the embedded database too; this
 * command only asks it to, with the key it left in the data folder.
 */
async function main(): Promise<void> {
  const config = loadConfig(['database', 'demoInbox'], process.env);
  const inboxUrl = `http://127.0.0.1:${config.demoInbox.DEMO_INBOX_PORT}`;
  let key: string;
  try {
    key = readFileSync(demoKeyFile(config.database.VIGIL_DATA_DIR), 'utf8');
  } catch {
    throw new Error('Vigil is not running here: start it first (npm start), then npm run demo');
  }
  process.stdout.write('[demo] feeding sample detections and investigations...\n');
  const response = await fetch(`${inboxUrl}/demo`, {
    method: 'POST',
    headers: { 'x-vigil-demo-key': key },
  }).catch(() => {
    throw new Error(`Vigil does not answer at ${inboxUrl}: start it first (npm start)`);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Vigil answered ${response.status}: ${text}`);
  for (const line of text.trimEnd().split('\n')) process.stdout.write(`[demo] ${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
