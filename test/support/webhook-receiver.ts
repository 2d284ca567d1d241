import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a path answers: a status (and headers), or a custom handler. */
export type WebhookResponder = (
  request: ReceivedWebhook,
  response: ServerResponse,
  nth: number,
) => void | Promise<void>;

/**
 * A real HTTP endpoint on 127.0.0.1 for webhook tests: records every request with its raw body
 * and answers per path (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly responders = new Map<string, WebhookResponder>();
  /**
   * Requests per path so far: counted, not filtered from `received`, which would make a long
   * run's receiver answer slower with every request it has taken.
   */
  private readonly countByPath = new Map<string, number>();
  private server: Server | null = null;
  private baseUrl = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    return receiver;
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  on(path: string, responder: WebhookResponder): void {
    this.responders.set(path, responder);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedWebhook = {
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.received.push(request);
        const nth = (this.countByPath.get(request.path) ?? 0) + 1;
        this.countByPath.set(request.path, nth);
        const responder = this.responders.get(request.path);
        Promise.resolve(responder ? responder(request, res, nth) : res.writeHead(200).end('ok'))
          .catch(() => res.writeHead(500).end())
          .finally(() => undefined);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
  }
}
