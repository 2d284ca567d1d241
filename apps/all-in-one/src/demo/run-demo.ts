import type { SecretBox, SqlClient, WebhookTargetPolicy } from '@vigil/control-plane';
import { feedDemo } from './feed-demo';
import { DEMO_RECIPIENTS, prepareDemo } from './prepare-demo';
import { buildDemoScenario, type DemoScenario } from './sample-data';

export const DEMO_CHANNEL = 'demo';

export interface RunDemoOptions {
  readonly sql: SqlClient;
  readonly ingestUrl: string;
  /** The local inbox of the all-in-one process. */
  readonly inboxUrl: string;
  readonly webUrl: string;
  readonly policy: WebhookTargetPolicy;
  /** The key the apps seal webhook secrets with. */
  readonly secrets?: SecretBox;
  readonly seed?: number;
  readonly pauseMs?: number;
  readonly log?: (message: string) => void;
}

export interface DemoRun {
  readonly scenario: DemoScenario;
  readonly providerId: string;
}

async function tellReceiverTheSecret(inboxUrl: string, secret: string): Promise<void> {
  const response = await fetch(`${inboxUrl}/webhooks/${DEMO_CHANNEL}/secret`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret }),
  });
  if (!response.ok) throw new Error(`The local inbox answered ${response.status}`);
}

/** Prepares the control plane, feeds the sample data and says where to look. */
export async function runDemo(options: RunDemoOptions): Promise<DemoRun> {
  const log = options.log ?? (() => undefined);
  const scenario = buildDemoScenario(options.seed ?? Date.now(), new Date());
  const setup = await prepareDemo(options.sql, scenario, {
    receiverUrl: `${options.inboxUrl}/webhooks/${DEMO_CHANNEL}`,
    policy: options.policy,
    secrets: options.secrets,
  });
  await tellReceiverTheSecret(options.inboxUrl, setup.secret);
  log(`webhook provider enrolled; global emails go to ${DEMO_RECIPIENTS.join(', ')}`);
  await feedDemo(scenario, {
    ingestUrl: options.ingestUrl,
    token: setup.token,
    pauseMs: options.pauseMs ?? 3_000,
    onProgress: (message) => log(`sent ${message}`),
  });
  const modes = scenario.detections
    .map((d) => `    ${d.frequency.padEnd(9)} ${d.name} (${d.source})`)
    .join('\n');
  log(
    [
      'sample data sent. Within a minute:',
      `  webhooks      ${options.inboxUrl}/webhooks  (every mode, at once; signatures verified)`,
      `  mail          ${options.inboxUrl}/mail  (Immediate and Threshold at once; the Batch digest at the end of the minute)`,
      `  web app       ${options.webUrl}/u/detections`,
      '  detections:',
      modes,
      '  (run the demo again: the same detections get new events)',
    ].join('\n'),
  );
  return { scenario, providerId: setup.providerId };
}
