import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths never written to a log line: credentials, tokens and session ids. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-id"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.code',
  '*.sid',
];

export function createLogger(opts: {
  level: string;
  pretty?: boolean;
  destination?: pino.DestinationStream;
}): Logger {
  return pino({ level: opts.level, redact: { paths: REDACT, censor: '[redacted]' } }, opts.destination);
}
