import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { AppOps } from '../app-ops';
import { OpsRuntime } from '../ops-runtime';

const config = {
  OPS_PORT: 0,
  OPS_HOST: '127.0.0.1',
  VIGIL_METRICS: 'on' as const,
  OPS_LOOP_STALL_MS: 60_000,
  OPS_STEP_MAX_MS: 300_000,
};

/** An app whose request log goes to `lines`, serving every path with 200. */
async function loggedApp(
  lines: string[],
  loggedPathOf?: (path: string) => string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  const runtime = new OpsRuntime({
    metrics: true,
    processApp: 'web',
    liveness: { stallMs: 60_000, stepMaxMs: 300_000 },
    logger,
  });
  const ops = AppOps.create('web', config, logger, runtime);
  const app = express();
  for (const handler of ops.observeRequests({ requestIdOf: () => 'r-1', loggedPathOf })) {
    app.use(handler);
  }
  app.use((_req: express.Request, res: express.Response) => {
    res.send('ok');
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('observeRequests', () => {
  it('logs the path without its query string', async () => {
    const lines: string[] = [];
    const app = await loggedApp(lines);
    try {
      await fetch(`${app.url}/detections/d-1?token=secret`);
    } finally {
      await app.close();
    }
    const line = JSON.parse(lines.join('')) as { req: { path: string }; requestId?: string };
    expect(line.req.path).toBe('/detections/d-1');
    expect(lines.join('')).not.toContain('secret');
  });

  it('logs the path as the app says it may be logged, so a one-time link secret stays out', async () => {
    const lines: string[] = [];
    const app = await loggedApp(lines, (path) =>
      path.replace(/^\/reset-password\/[^/]*/, '/reset-password/[redacted]'),
    );
    try {
      await fetch(`${app.url}/reset-password/${'S'.repeat(43)}`);
    } finally {
      await app.close();
    }
    const logged = lines.join('');
    expect(logged).toContain('/reset-password/[redacted]');
    expect(logged).not.toContain('S'.repeat(43));
  });
});
