import { Agent, request, type OutgoingHttpHeaders } from 'node:http';

export interface TimedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
  /** Time from sending the request to the last byte of the answer, in milliseconds. */
  readonly elapsedMs: number;
}

/** One kept-alive connection, so repeated requests measure the server, not TCP set-up. */
export function oneConnection(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

/**
 * An HTTP request with exactly the headers given, including a header sent twice (an array value
 * becomes two header lines, which fetch would merge into one), timed to the last byte.
 */
export function timedRequest(
  method: string,
  url: string,
  headers: OutgoingHttpHeaders = {},
  body?: string,
  agent: Agent | false = false,
): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // leave as text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, elapsedMs });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
