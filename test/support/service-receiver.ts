import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServiceRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ServiceAnswer {
  status: number;
  contentType?: string;
  body?: string;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a third-party service in tests: records every
 * request with its raw body and answers with what `answer` decides, the way the service does.
 */
export class ServiceReceiver {
  readonly received: ServiceRequest[] = [];
  private server: Server | null = null;
  private baseUrl = '';

  constructor(private readonly answer: (request: ServiceRequest) => ServiceAnswer) {}

  /** The receiver's address followed by `pathAndQuery`. */
  url(pathAndQuery: string): string {
    return `${this.baseUrl}${pathAndQuery}`;
  }

  async listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ServiceRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.received.push(request);
        let answer: ServiceAnswer;
        try {
          answer = this.answer(request);
        } catch (error) {
          answer = { status: 500, body: String(error) };
        }
        res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain' });
        res.end(answer.body ?? '');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Whether a request says its body is JSON (`application/json`, any charset). */
export function isJsonRequest(request: ServiceRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return /^application\/json\s*(;|$)/i.test(type);
}

/** The body parsed as a JSON object, or null. */
export function jsonObjectOf(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keys of `value` outside `allowed`. */
export function unknownKeys(value: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !allowed.includes(key));
}
