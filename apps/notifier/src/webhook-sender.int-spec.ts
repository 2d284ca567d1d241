import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_TARGETS_ONLY, type ClaimedDelivery } from '@vigil/control-plane';
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

function senderFor(url: string, policy = PUBLIC_TARGETS_ONLY) {
  return new WebhookSender({
    policy,
    timeoutMs: 2_000,
    provider: async (id) => ({
      id,
      name: 'p',
      url,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      deleted: false,
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
