import { NO_PROVIDER_FILTER } from '@vigil/notification-policy';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_TARGETS_ONLY, type ClaimedDelivery } from '@vigil/control-plane';
import { Webhook } from 'standardwebhooks';
import { WebhookSender } from './webhook-sender';

let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const delivery: ClaimedDelivery = {
  id: '0b7c1f5e-3a55-4a8e-9a1c-2f0f1b9c7d11',
  notificationId: 'n',
  kind: 'detection',
  channel: 'webhook',
  target: 'p',
  payload: '{"hello":"world"}',
  attemptCount: 0,
  seriesFailures: 0,
};

function senderFor(url: string, policy = PUBLIC_TARGETS_ONLY, timeoutMs = 2_000) {
  return new WebhookSender({
    policy,
    timeoutMs,
    provider: async (id) => ({
      id,
      name: 'p',
      destination: { kind: 'webhook', url },
      url,
      filter: NO_PROVIDER_FILTER,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      deleted: false,
      disabled: false,
    }),
  });
}

describe('WebhookSender SSRF guard at send time', () => {
  it.each(['127.0.0.1', 'localhost'])(
    'refuses to connect to %s when private targets are not allowed',
    async (host) => {
      const sender = senderFor(`http://${host}:${port}/hook`);
      const before = hits;
      const outcome = await sender.send(delivery);
      sender.close();
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatch(/loopback address; webhook targets must be public/);
      expect(hits).toBe(before);
    },
  );

  it('connects when the operator allows private targets', async () => {
    const sender = senderFor(`http://localhost:${port}/hook`, {
      allowPrivate: true,
      allowlist: [],
    });
    const outcome = await sender.send(delivery);
    sender.close();
    expect(outcome).toEqual({ ok: true, statusCode: 200, error: null });
  });
});

describe('WebhookSender on kept-alive connections', () => {
  const allowPrivate = { allowPrivate: true, allowlist: [] };
  let closing: Server;
  let closingPort: number;
  const seen: { socket: number; webhookId: string | undefined }[] = [];

  beforeAll(async () => {
    // Answers the first request of each connection and keeps it open, then closes the connection
    // when the next request arrives on it: the race of a receiver closing an idle connection
    // just as the sender reuses it.
    const sockets = new WeakMap<object, number>();
    let nextSocket = 0;
    closing = createServer((req, res) => {
      const known = sockets.get(req.socket);
      const socket = known ?? nextSocket++;
      sockets.set(req.socket, socket);
      seen.push({ socket, webhookId: req.headers['webhook-id'] as string | undefined });
      if (known !== undefined) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    closingPort = (closing.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => closing.close(() => resolve())));

  it('sends again on a new connection when a reused one is reset before any answer', async () => {
    const sender = senderFor(`http://127.0.0.1:${closingPort}/hook`, allowPrivate);
    const first = await sender.send(delivery);
    const second = await sender.send({ ...delivery, id: 'c5f2b0e1-9d1e-4c7a-8b55-6f4a3e2d1c00' });
    sender.close();
    expect(first).toEqual({ ok: true, statusCode: 200, error: null });
    expect(second).toEqual({ ok: true, statusCode: 200, error: null });
    // The second delivery reached the reused connection, was reset, and came again on a new one.
    expect(seen.map((s) => s.socket)).toEqual([0, 0, 1]);
    expect(seen.slice(1).map((s) => s.webhookId)).toEqual([
      'c5f2b0e1-9d1e-4c7a-8b55-6f4a3e2d1c00',
      'c5f2b0e1-9d1e-4c7a-8b55-6f4a3e2d1c00',
    ]);
  });

  it('reports a reset of a new connection as the attempt failing', async () => {
    const resetting = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const sender = senderFor(
      `http://127.0.0.1:${(resetting.address() as AddressInfo).port}/hook`,
      allowPrivate,
    );
    const outcome = await sender.send(delivery);
    sender.close();
    await new Promise<void>((resolve) => resetting.close(() => resolve()));
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/socket hang up|ECONNRESET/);
  });
});

describe('WebhookSender during a secret rotation', () => {
  const NEW_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
  const OLD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const OTHER_SECRET = 'whsec_9Kq9PYHlsE3ZZ8JEM7e3yb6M1Ao6VGPk';
  let receiving: Server;
  let receivingPort: number;
  const received: { body: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    receiving = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers as Record<string, string>,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiving.listen(0, '127.0.0.1', resolve));
    receivingPort = (receiving.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => receiving.close(() => resolve())));

  async function sendWith(previousSecret: string | undefined) {
    const sender = new WebhookSender({
      policy: { allowPrivate: true, allowlist: [] },
      timeoutMs: 2_000,
      provider: async (id) => ({
        id,
        name: 'p',
        destination: {
          kind: 'webhook',
          url: `http://127.0.0.1:${receivingPort}/hook`,
        },
        url: `http://127.0.0.1:${receivingPort}/hook`,
        filter: NO_PROVIDER_FILTER,
        secret: NEW_SECRET,
        previousSecret,
        deleted: false,
        disabled: false,
      }),
    });
    const outcome = await sender.send(delivery);
    sender.close();
    expect(outcome.ok).toBe(true);
    return received[received.length - 1];
  }

  const verifies = (
    secret: string,
    { body, headers }: { body: string; headers: Record<string, string> },
  ) => {
    try {
      new Webhook(secret).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  };

  it('carries both signatures while the old secret signs: the official verifier accepts either', async () => {
    const request = await sendWith(OLD_SECRET);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
    expect(verifies(NEW_SECRET, request)).toBe(true);
    expect(verifies(OLD_SECRET, request)).toBe(true);
    expect(verifies(OTHER_SECRET, request)).toBe(false);
  });

  it('carries only the new signature once the overlap is over', async () => {
    const request = await sendWith(undefined);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verifies(NEW_SECRET, request)).toBe(true);
    expect(verifies(OLD_SECRET, request)).toBe(false);
  });
});

describe('WebhookSender timeout', () => {
  const allowPrivate = { allowPrivate: true, allowlist: [] };
  let silent: Server;
  const held: (() => void)[] = [];

  beforeAll(async () => {
    // /silent never answers; /trickle answers its status line and holds the body back.
    silent = createServer((req, res) => {
      if (req.url === '/trickle') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      }
      held.push(() => res.destroy());
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    held.forEach((release) => release());
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it.each(['/silent', '/trickle'])(
    'gives up on %s at the timeout, as a timeout, each time',
    async (path) => {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}${path}`;
      const sender = senderFor(url, allowPrivate, 300);
      const started = performance.now();
      const outcome = await sender.send(delivery);
      const elapsed = performance.now() - started;
      expect(outcome).toEqual({
        ok: false,
        statusCode: null,
        error: 'No response within 300 ms',
        failure: 'timeout',
      });
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(2_000);
      // The timed-out connection is gone: the next send waits its own timeout, no longer.
      const again = await sender.send({ ...delivery, id: 'e3c1a7f0-55b2-4c1e-9d0a-7b6f5e4d3c21' });
      expect(again.failure).toBe('timeout');
      sender.close();
    },
  );
});
