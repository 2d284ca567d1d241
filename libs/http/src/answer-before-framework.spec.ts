import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBeforeFramework } from './answer-before-framework';

describe('answerBeforeFramework', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('framework'));
    answerBeforeFramework(server, (req, res) => {
      if (req.url !== '/front') return false;
      res.end('front');
      return true;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers what the front handler takes, and nothing else reaches the framework', async () => {
    expect(await (await fetch(`${url}/front`)).text()).toBe('front');
    expect(await (await fetch(`${url}/other`)).text()).toBe('framework');
  });

  it('refuses a server whose framework has not installed its listener', () => {
    expect(() => answerBeforeFramework(createServer(), () => false)).toThrow(/not installed/);
  });
});
