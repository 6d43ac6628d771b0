/**
 * The process-wide policy for errors no code path handled, decided here rather than inherited from whatever a
 * dependency registers (`@colyseus/core` loads the optional `@pm2/io`, whose handlers differ by install):
 *
 * - an unhandled promise rejection is logged with its context, counted in `game_unhandled_errors_total`
 *   {kind="unhandled_rejection"}, and the server keeps serving: it is a bug to fix, not a reason to drop every
 *   player (item state is never held only in memory: every move is a committed transaction);
 * - an uncaught exception is logged, counted {kind="uncaught_exception"} and then `onUncaughtException` runs,
 *   which in the server process shuts down gracefully and exits 1: after a synchronous throw escaped, memory may
 *   be half-updated, and a restart reloads it from the database (a kill -9 at any instant loses nothing).
 */
import type { EventEmitter } from 'node:events';
import type { Logger } from '../logger.ts';

export type UnhandledErrorKind = 'unhandled_rejection' | 'uncaught_exception';

export interface ProcessErrorPolicyOptions {
  logger: Logger;
  /** Counts one error (the server's metrics, once it is up). */
  count(kind: UnhandledErrorKind): void;
  onUncaughtException(error: unknown): void;
  /** The emitter to listen on; `process` unless a test passes its own. */
  target?: EventEmitter;
}

/** Installs the policy; returns a function that removes it. */
export function installProcessErrorPolicy(options: ProcessErrorPolicyOptions): () => void {
  const target = options.target ?? process;
  const onRejection = (reason: unknown) => {
    options.count('unhandled_rejection');
    options.logger.error({ err: reason, kind: 'unhandled_rejection' }, 'unhandled promise rejection (the server keeps serving)');
  };
  const onException = (error: unknown, origin?: string) => {
    options.count('uncaught_exception');
    options.logger.fatal({ err: error, kind: 'uncaught_exception', origin }, 'uncaught exception; shutting down');
    options.onUncaughtException(error);
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}
