import { connect } from 'node:net';

export interface RawAnswer {
  readonly statusLine: string;
  /** The header lines, as sent. */
  readonly head: string;
  readonly body: string;
}

/** What the JSON apps answer to a request target no URL parser reads. */
export const UNREADABLE_TARGET_REFUSAL = {
  error: {
    code: 'invalid_request',
    message: 'The request target is not a valid URL',
    details: { field: 'url' },
  },
};

/** One HTTP/1.1 exchange written byte for byte, for what an HTTP client would refuse to send. */
export function rawExchange(url: string, text: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('end', () => {
      const split = answer.indexOf('\r\n\r\n');
      const head = split < 0 ? answer : answer.slice(0, split);
      resolve({
        statusLine: head.split('\r\n')[0],
        head,
        body: split < 0 ? '' : answer.slice(split + 4),
      });
    });
    socket.on('error', reject);
  });
}
