import { quantity } from '@vigil/contracts';
import type { DemoScenario } from './sample-data';

export interface FeedOptions {
  readonly ingestUrl: string;
  readonly token: string;
  /** Pause between waves, so each wave is its own recalculation. */
  readonly pauseMs: number;
  readonly onProgress?: (message: string) => void;
}

async function post(url: string, token: string, records: readonly unknown[]): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(records),
  });
  if (response.status !== 202) {
    throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  }
  const result = (await response.json()) as { accepted?: number; rejected?: number };
  if (result.rejected !== 0) {
    throw new Error(`POST ${url} rejected records: ${JSON.stringify(result)}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the scenario through the ingest API: the event waves, then the investigations. */
export async function feedDemo(scenario: DemoScenario, options: FeedOptions): Promise<void> {
  const events = `${options.ingestUrl}/ingest/v1/detection-events`;
  for (const [index, wave] of scenario.waves.entries()) {
    if (index > 0) await sleep(options.pauseMs);
    await post(events, options.token, wave);
    options.onProgress?.(`wave ${index + 1}: ${quantity(wave.length, 'event')}`);
  }
  await sleep(options.pauseMs);
  await post(
    `${options.ingestUrl}/ingest/v1/investigations`,
    options.token,
    scenario.investigations,
  );
  options.onProgress?.(quantity(scenario.investigations.length, 'investigation'));
}
