/** pino: JSON lines in production and tests, pretty-printed in development. Secrets are redacted by path. */
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export function createLogger(config: Pick<Config, 'nodeEnv' | 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'game-server' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'token', '*.token', 'password', '*.password'],
      censor: '[redacted]',
    },
    ...(config.nodeEnv === 'development'
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  });
}
