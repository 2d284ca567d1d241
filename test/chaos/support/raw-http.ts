import { Agent, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as UTF-8 text, unparsed. */
  readonly text: string;
}

/**
 * Sends requests exactly as given (headers, raw body bytes) over kept-alive connections to one
 * base URL: hostile input must reach the server unchanged, which fetch does not guarantee.
 */
export class RawHttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  send(
    method: string,
    path: string,
    headers: OutgoingHttpHeaders = {},
    body?: Buffer,
  ): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.baseUrl),
        { method, headers, agent: this.agent, timeout: this.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`no answer within ${this.timeoutMs} ms: ${method} ${path}`)),
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
