import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line: credentials, token values, webhook secrets. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  'tokenValue',
  'secret',
  'password',
  '*.token',
  '*.secret',
  '*.password',
  '*.authorization',
];

let destination: DestinationStream | undefined;

/**
 * Sends the lines of every logger created from now on to `stream` instead of stdout (undefined
 * restores stdout), so a test can read what the apps it starts in-process log.
 */
export function routeLogsTo(stream: DestinationStream | undefined): void {
  destination = stream;
}

export function createLogger(name: string, level = 'info'): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
