import pino, { type Logger } from 'pino';

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

export function createLogger(name: string, level = 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
