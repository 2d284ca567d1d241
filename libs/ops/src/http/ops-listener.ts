import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Liveness } from '../liveness/liveness';
import type { Readiness } from '../readiness/readiness';

export interface OpsListenerOptions {
  host: string;
  port: number;
  /** The Prometheus text of every series, and its content type. */
  metrics: () => Promise<string>;
  contentType: string;
  liveness: Liveness;
  readiness: Readiness;
}

export interface OpsListener {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The ops endpoints on a port of their own, apart from the public one (plain node:http, no
 * framework): /metrics (Prometheus text), /livez, /readyz. None of them waits on a server for
 * longer than the readiness timeout: /metrics and /livez read memory only.
 */
export async function startOpsListener(options: OpsListenerOptions): Promise<OpsListener> {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', `ops listener error: ${String(error)}\n`);
      else res.destroy();
    });
  });
  // Probes come often: keep their connections for reuse, but never wait long on a silent one.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return { url: `http://${host}:${port}`, close: () => closeServer(server) };
}

async function handle(
  options: OpsListenerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'text/plain', 'method not allowed\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  switch (path) {
    case '/metrics': {
      const text = await options.metrics();
      return send(res, 200, options.contentType, text);
    }
    case '/livez': {
      const report = options.liveness.report();
      return json(
        res,
        report.alive ? 200 : 503,
        report.alive ? { status: 'alive' } : { status: 'stuck', stuck: report.stuck },
      );
    }
    case '/readyz': {
      const report = await options.readiness.report();
      return json(
        res,
        report.ready ? 200 : 503,
        report.ready
          ? { status: 'ready', dependencies: report.dependencies }
          : { status: 'unavailable', failing: report.failing, dependencies: report.dependencies },
      );
    }
    default:
      return send(res, 404, 'text/plain', 'not found: try /metrics, /livez or /readyz\n');
  }
}

function json(res: ServerResponse, status: number, body: object): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
