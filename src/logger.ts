/**
 * pino: JSON lines in production and tests, pretty-printed in development. Secrets are redacted by path (defence
 * in depth: the request log never serialises headers, see src/http/request-log.ts). Tests may pass a destination
 * stream to read the lines. Everything else that would write to the console goes through it too (docs/logging.md):
 * Colyseus' own messages (`consoleStyleLogger`, handed to `new Server({ logger })`) and, in the server process,
 * every `console.*` call of a dependency such as @colyseus/schema's warnings (`routeConsoleToLogger`).
 */
import { format } from 'node:util';
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

type ConsoleLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** The console's methods, as Colyseus' logger option and the console itself are called. */
export interface ConsoleStyleLogger {
  trace(...args: unknown[]): void;
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * Console-style calls (`warn("text", value, error)`) as pino lines: the first Error becomes `err` (message, stack,
 * type), every other argument is formatted into `msg` as the console would print it.
 */
export function consoleStyleLogger(logger: Logger): ConsoleStyleLogger {
  const write = (level: ConsoleLevel) => (...args: unknown[]): void => {
    if (!logger.isLevelEnabled(level)) return;
    const index = args.findIndex((arg) => arg instanceof Error);
    const rest = index < 0 ? args : args.filter((_, i) => i !== index);
    const message = format(...rest);
    if (index < 0) logger[level](message);
    else logger[level]({ err: args[index] }, message || (args[index] as Error).message);
  };
  return { trace: write('trace'), debug: write('debug'), info: write('info'), log: write('info'), warn: write('warn'), error: write('error') };
}

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Sends every `console.*` call of this process through the logger (`source: "console"`), so no dependency writes a
 * raw line between the JSON ones. Returns a function that puts the console back. For the server process only
 * (main.ts): tests and command-line tools keep their console.
 */
export function routeConsoleToLogger(logger: Logger): () => void {
  const routed = consoleStyleLogger(logger.child({ source: 'console' }));
  const original = new Map(CONSOLE_METHODS.map((method) => [method, console[method]]));
  for (const method of CONSOLE_METHODS) console[method] = routed[method];
  return () => {
    for (const [method, fn] of original) console[method] = fn;
  };
}

/**
 * A configuration the server refused, reported before any logger exists: one JSON line (level fatal, every
 * problem in `problems`) on stdout in production, where log collectors expect nothing else; the readable message
 * on stderr otherwise. Written synchronously: the process exits right after.
 */
export function reportConfigError(error: { message: string; problems: readonly string[] }, nodeEnv: string | undefined): void {
  if (nodeEnv !== 'production') {
    process.stderr.write(`${error.message}\n`);
    return;
  }
  pino({ base: { service: 'game-server' } }, pino.destination({ dest: 1, sync: true }))
    .fatal({ problems: error.problems }, 'invalid configuration: the server did not start');
}
