import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ApiError } from './api-error';
import {
  UNREADABLE_TARGET_PATH,
  markUnreadableTargets,
  refuseUnreadableTarget,
} from './unreadable-request-target';

/** Sends one raw request line and answers what the framework's listener saw, and the refusal. */
async function seenBy(target: string): Promise<{ url: string | undefined; refusal: unknown }> {
  let seen: { url: string | undefined; refusal: unknown } | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    refuseUnreadableTarget(req, res, (refusal?: unknown) => {
      seen = { url: req.url, refusal };
      res.end();
    });
  });
  markUnreadableTargets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', () => undefined);
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  await new Promise((resolve) => server.close(resolve));
  return seen!;
}

describe('markUnreadableTargets and refuseUnreadableTarget', () => {
  it('pass a readable target through untouched', async () => {
    for (const target of ['/ingest/v1/detection-events?x=1', 'http://host:80/a%20b', '*']) {
      expect(await seenBy(target)).toEqual({ url: target, refusal: undefined });
    }
  });

  it('give an unreadable target a readable path and refuse it with a 400 naming the URL', async () => {
    const { url, refusal } = await seenBy('http://[::1:80/settings?token=secret');
    expect(url).toBe(UNREADABLE_TARGET_PATH);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'The request target is not a valid URL',
      details: { field: 'url' },
    });
  });

  it('refuse to wrap a server whose framework has not installed its listener', () => {
    expect(() => markUnreadableTargets(createServer())).toThrow(/has not installed its listener/);
  });
});
