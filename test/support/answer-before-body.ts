import { Socket } from 'node:net';

export interface EarlyAnswer {
  readonly status: number;
  /** Header names lowercased. */
  readonly headers: Record<string, string>;
  readonly body: string;
  /** From the request's headers to the first byte of the answer. */
  readonly ms: number;
  /** Body bytes the client had written when the answer came. */
  readonly bodyBytesSent: number;
}

/**
 * Sends a request's headers declaring a `declaredBytes` body, then writes the body slowly, a
 * chunk every `chunkEveryMs`; resolves as soon as the server answers (it need not have read the
 * body), or rejects after `timeoutMs` without an answer. The connection is dropped afterwards.
 */
export function answerBeforeBody(
  url: string,
  headers: Record<string, string>,
  declaredBytes: number,
  { chunkBytes = 1024, chunkEveryMs = 100, timeoutMs = 5_000 } = {},
): Promise<EarlyAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    const started = Date.now();
    let sent = 0;
    let answer = '';
    let trickle: NodeJS.Timeout | undefined;
    const finish = (outcome: () => void) => {
      clearInterval(trickle);
      clearTimeout(deadline);
      socket.destroy();
      outcome();
    };
    const deadline = setTimeout(
      () =>
        finish(() => reject(new Error(`no answer within ${timeoutMs} ms (${sent} bytes sent)`))),
      timeoutMs,
    );
    socket.on('error', (error) => finish(() => reject(error)));
    socket.on('data', (chunk: Buffer) => {
      const ms = Date.now() - started;
      answer += chunk.toString('latin1');
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...headerLines] = answer.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const body = answer.slice(end + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      const status = Number(statusLine.split(' ')[1]);
      finish(() => resolve({ status, headers, body, ms, bodyBytesSent: sent }));
    });
    socket.connect(Number(target.port), target.hostname, () => {
      const lines = [
        `POST ${target.pathname} HTTP/1.1`,
        `Host: ${target.host}`,
        `Content-Length: ${declaredBytes}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      trickle = setInterval(() => {
        const size = Math.min(chunkBytes, declaredBytes - sent);
        if (size <= 0) return;
        socket.write(Buffer.alloc(size, 0x20));
        sent += size;
      }, chunkEveryMs);
    });
  });
}
