import { Registry, collectDefaultMetrics } from 'prom-client';

/** The `app` value the Node.js series are collected with, replaced by each runtime's own. */
const PROCESS_APP = '__process__';

let nodeRegistry: Registry | null = null;

/**
 * The Node.js series of the process (event-loop lag, heap, GC, CPU) under the vigil_ prefix, as
 * Prometheus text labelled with `app`. They are collected once per process however many
 * runtimes it has, since what collects them (an event-loop monitor, a GC observer) is never
 * released; each runtime labels them with its own app when it serves them.
 */
export async function nodeMetricsText(app: string): Promise<string> {
  if (!nodeRegistry) {
    nodeRegistry = new Registry();
    collectDefaultMetrics({
      register: nodeRegistry,
      prefix: 'vigil_',
      labels: { app: PROCESS_APP },
    });
  }
  const text = await nodeRegistry.metrics();
  return text.replaceAll(`app="${PROCESS_APP}"`, `app="${app}"`);
}
