/**
 * pino: JSON lines in production and tests, pretty-printed in development. Secrets are redacted by path (defence
 * in depth: the request log never serialises headers, see src/http/request-log.ts). Tests may pass a destination
 * stream to read the lines.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-admin-code"]', 'res.headers["set-cookie"]',
  'headers.authorization', 'headers.cookie', 'authorization', 'cookie',
  'token', '*.token', 'idpToken', '*.idpToken', 'password', '*.password', 'adminCode', '*.adminCode', 'secret', '*.secret',
];

export function createLogger(config: Pick<Config, 'nodeEnv' | 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'game-server' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  return pino({
    ...options,
    ...(config.nodeEnv === 'development'
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  });
}
