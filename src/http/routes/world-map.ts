/**
 * The live world map for operators (docs/operations.md), admin-gated like the monitor (HTTP Basic with an admin
 * server token as password, or Bearer):
 *
 *   GET /operator/world-map                                 the page (src/web/world-map/: HTML + canvas + JS modules, no build step)
 *   GET /operator/shared/*.js                               the modules it shares with the play page (src/web/shared/)
 *   GET /operator/world-map/api/worlds                      the world rooms of this process (numbers, tick, players, last
 *                                                           tick time) and the process itself (Colyseus process id, pid)
 *   GET /operator/world-map/api/worlds/:worldId/tiles       the tile map (once)
 *   GET /operator/world-map/api/worlds/:worldId/snapshot    every player, NPC, resource, ground item, gravestone and fire
 *
 * The page polls the snapshot once per game tick: a whole-world operator view, read from the room's state.
 */
import { matchMaker } from '@colyseus/core';
import { Router, type RequestHandler } from 'express';
import type { AuthService } from '../../auth/service.ts';
import type { GameMetrics } from '../../observability/metrics.ts';
import { worldSnapshot, worldSummary, worldTiles, type ObservedWorld } from '../../observability/world-view.ts';
import { requireOperator } from '../operator-tools.ts';
import { PAGE_CSP, sendWebFile, webFile } from '../web-files.ts';
import { GameError } from '../../game/refusal.ts';

export const WORLD_MAP_PATH = '/operator/world-map';
/** The modules the map shares with the play page (src/web/shared/), admin-gated here like the map itself. */
export const OPERATOR_SHARED_PATH = '/operator/shared';

/** The page may load only its own scripts and style, and may not be framed. */
const PAGE_HEADERS = { 'Content-Security-Policy': PAGE_CSP, 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' };

/** The process answering: the map lists only the worlds it runs (with REDIS_URL, one process of several). */
function processInfo(): { id: string; pid: number } {
  return { id: matchMaker.processId, pid: process.pid };
}

const noStore: RequestHandler = (_req, res, next) => {
  res.set(PAGE_HEADERS);
  next();
};

export function createWorldMapRouter(metrics: GameMetrics, auth: AuthService): Router {
  const router = Router();
  const operator = requireOperator(auth);
  const world = (worldId: unknown): ObservedWorld => {
    const found = typeof worldId === 'string' ? metrics.worlds.get(worldId) : undefined;
    if (!found) throw new GameError('WORLD_NOT_FOUND', 'No world room with that id runs in this process');
    return found;
  };

  router.get(`${WORLD_MAP_PATH}/api/worlds`, operator, noStore, (_req, res) => {
    const worlds = [...metrics.worlds.values()].sort((a, b) => a.worldNumber - b.worldNumber);
    res.json({ process: processInfo(), worlds: worlds.map((w) => worldSummary(w, metrics.lastTickSeconds(w.roomId))) });
  });
  router.get(`${WORLD_MAP_PATH}/api/worlds/:worldId/tiles`, operator, noStore, (req, res) => {
    res.json(worldTiles(world(req.params.worldId)));
  });
  router.get(`${WORLD_MAP_PATH}/api/worlds/:worldId/snapshot`, operator, noStore, (req, res) => {
    const found = world(req.params.worldId);
    res.json(worldSnapshot(found, metrics.lastTickSeconds(found.roomId)));
  });
  // The page and its files: prefix middlewares, like the monitor (an operator UI, not part of the REST API).
  router.use(WORLD_MAP_PATH, operator, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = req.path === '/' || req.path === '' ? webFile('world-map', 'index.html') : webFile('world-map', req.path.slice(1));
    if (!file) return next();
    sendWebFile(res, file, 'no-store');
  });
  router.use(OPERATOR_SHARED_PATH, operator, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = webFile('shared', req.path.slice(1));
    if (!file) return next();
    sendWebFile(res, file, 'no-store');
  });
  return router;
}
