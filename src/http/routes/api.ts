/**
 * The game REST API (docs/api.md): player and world, characters, player data, templates, agents and goal control,
 * and the OpenAPI document generated from their declarations. server.ts mounts `routers` with the other route
 * families and `guard` after the edge guards (it refuses revoked agent tokens on every HTTP request).
 */
import { Router, type Express, type RequestHandler } from 'express';
import { bearerToken, identityOf } from '../../auth/middleware.ts';
import type { Identity } from '../../auth/tokens.ts';
import { createAgentService, type AgentService } from '../../agents/service.ts';
import type { GameContext } from '../../context.ts';
import { buildOpenApiDocument, documentOpenApiRoute, documentOtherRoutes, mountedRoutes } from '../openapi.ts';
import { registerAgentRoutes } from './agents.ts';
import { ApiRegistry } from './api-kit.ts';
import { registerCharacterRoutes } from './characters.ts';
import { registerPlayerDataRoutes } from './player-data.ts';
import { registerPlayerWorldRoutes } from './player-world.ts';
import { registerTemplateRoutes } from './templates.ts';
import { registerVoiceRoutes } from './voice.ts';
import { registerWorldListRoutes } from './worlds.ts';
import { GameError } from '../../game/refusal.ts';

export interface GameApi {
  readonly routers: Router[];
  /** Runs the AuthService's token checks (agent revocation) for requests the /api gate authenticated. */
  readonly guard: RequestHandler;
  readonly registry: ApiRegistry;
  readonly agents: AgentService;
  /** Remembers the Express app so `mountedRoutes()` can list what it really serves. */
  attach(app: Express): void;
  mountedRoutes(): Array<{ method: string; path: string }>;
  openApiDocument(): Record<string, unknown>;
}

const apis = new WeakMap<GameContext, GameApi>();

export function apiOf(context: GameContext): GameApi | undefined {
  return apis.get(context);
}

export function createGameApi(context: GameContext): GameApi {
  const registry = new ApiRegistry();
  const agents = createAgentService(context);
  const router = Router();
  registerPlayerWorldRoutes(router, registry, context);
  registerWorldListRoutes(router, registry);
  registerCharacterRoutes(router, registry, context);
  registerPlayerDataRoutes(router, registry, context);
  registerTemplateRoutes(router, registry, context);
  registerAgentRoutes(router, registry, agents);
  registerVoiceRoutes(router, registry, context);
  documentOtherRoutes(registry);
  documentOpenApiRoute(registry);

  let document: Record<string, unknown> | undefined;
  const openApiDocument = () => (document ??= buildOpenApiDocument(registry));
  router.get('/api/openapi.json', (req, res) => {
    const extra = Object.keys(req.query as object);
    if (extra.length > 0) throw new GameError('VALIDATION_FAILED', 'this endpoint takes no query parameters', { errors: extra.map((path) => ({ in: 'query', path, message: 'unknown parameter' })) });
    res.set('Cache-Control', 'public, max-age=300').json(openApiDocument());
  });

  const guard: RequestHandler = async (req, _res, next) => {
    let identity: Identity | undefined;
    try {
      identity = identityOf(req);
    } catch {
      // Not authenticated by the /api gate (public paths such as /api/auth/*, or outside /api): look at the
      // bearer token anyway, so a revoked agent token is refused on every route. Invalid tokens are left to the route.
      try {
        const token = bearerToken(req.get('authorization'));
        identity = token ? context.auth.tokens.verify(token) : undefined;
      } catch {
        identity = undefined;
      }
    }
    if (identity?.scope === 'agent') await context.auth.runTokenChecks(identity);
    next();
  };

  let app: Express | undefined;
  const api: GameApi = {
    routers: [router],
    guard,
    registry,
    agents,
    attach: (express) => { app = express; },
    mountedRoutes: () => (app ? mountedRoutes(app) : []),
    openApiDocument,
  };
  apis.set(context, api);
  return api;
}
