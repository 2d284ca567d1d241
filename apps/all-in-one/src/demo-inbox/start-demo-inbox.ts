import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningApp } from '@vigil/config';
import {
  INBOX_PAGE_CSP,
  inboxHomePage,
  mailListPage,
  mailMessagePage,
  notFoundPage,
  webhooksPage,
} from './inbox-pages';
import { MailCatcher } from './mail-catcher';
import { WebhookInbox, isChannelName } from './webhook-inbox';

const MAX_WEBHOOK_BYTES = 1024 * 1024;
const HOST = '127.0.0.1';

export interface DemoInboxOptions {
  /** HTTP port of the receiver and of the pages (0: any free port). */
  readonly httpPort: number;
  /** SMTP port of the mail catcher (0: any free port). */
  readonly smtpPort: number;
  readonly capacity: number;
  /**
   * Runs the sample data in the Vigil of this process (POST /demo, `npm run demo`), allowed
   * only with `demoKey` in the x-vigil-demo-key header: a web page cannot set that header on a
   * cross-site request, and the key sits in a file only the owner reads.
   */
  readonly demo?: { key: string; run(): Promise<string[]> };
}

export interface RunningDemoInbox extends RunningApp {
  readonly url: string;
  /** Where a webhook provider should point: `${url}/webhooks/<channel>`. */
  webhookUrl(channel: string): string;
  /** The receiver's `address:port`, as the notifier's webhook target allowlist names it. */
  readonly endpoint: string;
  readonly smtpHost: string;
  readonly smtpPort: number;
  readonly webhooks: WebhookInbox;
  readonly mail: MailCatcher;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpProblem(413, 'Body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendPage(res: ServerResponse, status: number, page: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': INBOX_PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  res.end(page);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value));
}

/**
 * The local inbox of the all-in-one process, on 127.0.0.1 only: a webhook receiver
 * (POST /webhooks/<channel>, verified with the channel's secret once it is told it through
 * PUT /webhooks/<channel>/secret), a mail catcher (SMTP), and pages to read both.
 */
export async function startDemoInbox(options: DemoInboxOptions): Promise<RunningDemoInbox> {
  const webhooks = new WebhookInbox(options.capacity);
  const mail = new MailCatcher(options.capacity);
  let baseUrl = '';
  let smtpAddress = '';

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://inbox').pathname;
    const segments = path.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (segments[0] === 'webhooks' && segments.length >= 2 && !isChannelName(segments[1])) {
      throw new HttpProblem(404, 'No such channel');
    }
    if (method === 'POST' && segments[0] === 'webhooks' && segments.length === 2) {
      const body = await readBody(req, MAX_WEBHOOK_BYTES);
      const item = webhooks.record(segments[1], req.headers, body);
      return sendJson(res, 200, { received: item.seq, signature: item.signature });
    }
    if (method === 'PUT' && segments[0] === 'webhooks' && segments[2] === 'secret') {
      const { secret } = JSON.parse(await readBody(req, 4096)) as { secret?: unknown };
      if (typeof secret !== 'string' || secret.length === 0) {
        throw new HttpProblem(400, 'Send {"secret": "<the provider secret>"}');
      }
      webhooks.setSecret(segments[1], secret);
      res.writeHead(204).end();
      return;
    }
    if (method === 'POST' && path === '/demo' && options.demo) {
      const presented = Buffer.from(String(req.headers['x-vigil-demo-key'] ?? ''));
      const expected = Buffer.from(options.demo.key);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        throw new HttpProblem(403, 'Send the key of the demo-key file in x-vigil-demo-key');
      }
      const lines = await options.demo.run();
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(lines.map((line) => `${line}\n`).join(''));
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') throw new HttpProblem(405, 'Method not allowed');
    if (path === '/')
      return sendPage(res, 200, inboxHomePage(`${baseUrl}/webhooks/<channel>`, smtpAddress));
    if (path === '/webhooks') {
      return sendPage(res, 200, webhooksPage(webhooks.list(), `${baseUrl}/webhooks/<channel>`));
    }
    if (path === '/webhooks.json') return sendJson(res, 200, webhooks.list());
    if (path === '/mail') return sendPage(res, 200, mailListPage(mail.list(), smtpAddress));
    if (path === '/mail.json') return sendJson(res, 200, mail.list());
    if (segments[0] === 'mail' && segments.length === 2 && /^\d{1,9}$/.test(segments[1])) {
      const email = mail.get(Number(segments[1]));
      if (email !== undefined) return sendPage(res, 200, mailMessagePage(email));
    }
    sendPage(res, 404, notFoundPage());
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      const status = error instanceof HttpProblem ? error.status : 400;
      if (!res.headersSent) sendJson(res, status, { error: (error as Error).message });
    });
  });

  const smtpPort = await mail.listen(options.smtpPort);
  smtpAddress = `${HOST}:${smtpPort}`;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.httpPort, HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await mail.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${HOST}:${port}`;

  return {
    url: baseUrl,
    webhookUrl: (channel) => `${baseUrl}/webhooks/${channel}`,
    endpoint: `${HOST}:${port}`,
    smtpHost: HOST,
    smtpPort,
    webhooks,
    mail,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mail.close();
    },
  };
}
