/**
 * The server process (started through start.js, which checks the Node version): loads the configuration
 * (step 1), starts the server and shuts it down gracefully on SIGTERM/SIGINT within 10 seconds.
 */
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseStartError } from './db/database.ts';
import { createLogger, reportConfigError, routeConsoleToLogger } from './logger.ts';
import { installProcessErrorPolicy } from './observability/process-errors.ts';
import { startServer, type GameServer } from './server.ts';

let loaded;
try {
  loaded = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    reportConfigError(error, process.env.NODE_ENV);
    process.exit(1);
  }
  throw error;
}

const { config, warnings } = loaded;
const logger = createLogger(config);
routeConsoleToLogger(logger); // dependencies' console writes become log lines too (docs/logging.md)
logger.info({ step: 1, nodeEnv: config.nodeEnv, port: config.port }, 'configuration loaded');
for (const warning of warnings) logger.warn(warning);

const SHUTDOWN_DEADLINE_MS = 10_000;

// Signals are handled from the start: one that arrives while the server is still starting shuts it down as
// soon as it is up, instead of killing the process halfway through startup.
const starting = startServer({ config, logger });
let running: GameServer | undefined;
void starting.then((server) => (running = server), () => {});
let stopping = false;
const shutdown = (signal: string, exitCode = 0) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutdown requested');
  const deadline = setTimeout(() => {
    logger.error('shutdown did not finish within 10 s; exiting');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
  starting.then((server) => server.close()).then(
    () => process.exit(exitCode),
    (error) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
// Errors nothing handled: the policy is in process-errors.ts (rejections: log, count, keep serving).
installProcessErrorPolicy({
  logger,
  count: (kind) => running?.context.metrics.unhandledErrors.inc({ kind }),
  onUncaughtException: () => shutdown('uncaughtException', 1),
});

try {
  await starting;
} catch (error) {
  // A database that cannot be used as DATABASE_URL says is a configuration problem: one line, no stack trace.
  if (error instanceof DatabaseStartError) logger.fatal(`startup failed: ${error.message}`);
  else logger.fatal({ err: error }, 'startup failed');
  process.exit(1);
}
