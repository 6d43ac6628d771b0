/**
 * Operator tools on the game server's port (docs/operations.md):
 *
 * - `/colyseus`: the Colyseus monitor (rooms, their clients and state), for admins only. The admin's server token
 *   is accepted as `Authorization: Bearer <token>` or, so that a browser can open the monitor, as the password of
 *   HTTP Basic credentials (the user name is ignored). Of the room methods the monitor can call, only closing a
 *   client's connection is allowed: editing synchronised state would bypass the game rules (MONITOR_ROOM_METHODS).
 * - `/playground`: the Colyseus playground, in development (NODE_ENV=development) only; absent (404) in test and
 *   production. It is a dev dependency, loaded on demand.
 */
import { monitor } from '@colyseus/monitor';
import { Router, type Request, type RequestHandler } from 'express';
import { AuthError } from '../auth/errors.ts';
import { bearerToken } from '../auth/middleware.ts';
import type { AuthService } from '../auth/service.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { GameError } from '../game/refusal.ts';
import { HttpProblem } from './problem.ts';
import { requestAddress } from '../limits/client-address.ts';

export const MONITOR_PATH = '/colyseus';
export const PLAYGROUND_PATH = '/playground';

/**
 * Room methods the monitor may call remotely: close one client's connection (the player leaves and is saved as on a
 * disconnect). Disposing a room is refused too: the world room is created once at startup, so disposing it would
 * leave the process without a world until a restart.
 */
export const MONITOR_ROOM_METHODS: ReadonlySet<string> = new Set(['_forceClientDisconnect']);

const BASIC_CHALLENGE = 'Basic realm="game-operator", charset="UTF-8"';

export function playgroundEnabled(config: Config): boolean {
  return config.nodeEnv === 'development';
}

/** The server token of a request: a Bearer credential, or the password of Basic credentials. */
function operatorToken(header: string | undefined): string | undefined {
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  if (!basic) return bearerToken(header);
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 || colon === decoded.length - 1 ? undefined : decoded.slice(colon + 1);
}

/**
 * Admins only; a 401 challenges for Basic credentials so that a browser asks for them. Every refusal of the token
 * (missing, invalid, or without the admin role) is an authentication attempt of the client address, as on
 * /metrics: past RATE_LIMIT_AUTH_PER_MINUTE the address gets 429 AUTH_RATE_LIMITED whatever it sends.
 */
export function requireOperator(auth: AuthService): RequestHandler {
  return async (req: Request, _res, next) => {
    const header = req.get('authorization');
    try {
      await auth.attempts.countFailure({ address: requestAddress(req) }, async () => {
        const token = operatorToken(header);
        if (token === undefined) {
          throw new AuthError('AUTH_REQUIRED', 'the monitor needs an admin server token: Authorization: Bearer <token>, or Basic with the token as password');
        }
        // The roles the account holds now, not only those the token was signed with: a demoted admin loses the
        // operator pages at once (see docs/auth.md, sessions end when their rights end).
        const roles = await auth.sessions.currentRoles(auth.tokens.verify(token));
        if (!roles.includes('admin')) throw new AuthError('INSUFFICIENT_ROLE', 'the monitor needs the admin role');
      });
    } catch (error) {
      if (error instanceof AuthError && error.status === 401) {
        throw new HttpProblem(401, error.code, error.message, {}, { 'WWW-Authenticate': BASIC_CHALLENGE });
      }
      throw error;
    }
    // A browser sends remembered Basic credentials with requests other sites trigger too: only this origin's pages
    // and typed addresses may use them.
    const site = req.get('sec-fetch-site');
    if (/^basic /i.test(header ?? '') && site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new GameError('CROSS_SITE_REFUSED', 'the monitor cannot be used from another site');
    }
    next();
  };
}

/** Refuses remote room calls other than MONITOR_ROOM_METHODS (the monitor's only endpoint with a `method` query). */
const roomCallFilter: RequestHandler = (req, _res, next) => {
  const method = req.query.method;
  if (method !== undefined && !(typeof method === 'string' && MONITOR_ROOM_METHODS.has(method))) {
    throw new GameError('MONITOR_METHOD_REFUSED', `the monitor may only call ${[...MONITOR_ROOM_METHODS].join(', ')} on a room`);
  }
  next();
};

export interface OperatorToolsOptions {
  config: Config;
  auth: AuthService;
  logger: Logger;
}

export function createOperatorToolsRouter({ config, auth, logger }: OperatorToolsOptions): Router {
  const router = Router();
  // Prefix middlewares (router.use), not routes: they are operator UIs, not part of the documented REST API.
  router.use(MONITOR_PATH, requireOperator(auth), roomCallFilter, monitor() as unknown as RequestHandler);

  if (playgroundEnabled(config)) {
    const loading = import('@colyseus/playground').then(
      ({ playground }) => playground() as unknown as RequestHandler,
      (error: unknown) => {
        logger.warn({ err: error }, 'the Colyseus playground (a dev dependency) could not be loaded; /playground is off');
        return undefined;
      },
    );
    router.use(PLAYGROUND_PATH, (req, res, next) => {
      loading.then((handler) => (handler ? handler(req, res, next) : next()), next);
    });
  }
  return router;
}
