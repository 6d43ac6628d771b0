/**
 * The live world map for operators (docs/operations.md), admin-gated like the monitor (HTTP Basic with an admin
 * server token as password, or Bearer):
 *
 *   GET /operator/world-map                                 the page (plain HTML + canvas + JS, no build step)
 *   GET /operator/world-map/api/worlds                      the world rooms of this process: tick, players, last tick time
 *   GET /operator/world-map/api/worlds/:worldId/tiles       the tile map (once)
 *   GET /operator/world-map/api/worlds/:worldId/snapshot    every player, NPC, resource, ground item, gravestone and fire
 *
 * The page polls the snapshot once per game tick: a whole-world operator view, read from the room's state.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type RequestHandler } from 'express';
import type { AuthService } from '../../auth/service.ts';
import type { GameMetrics } from '../../observability/metrics.ts';
import { worldSnapshot, worldSummary, worldTiles, type ObservedWorld } from '../../observability/world-view.ts';
import { requireOperator } from '../operator-tools.ts';
import { GameError } from '../../game/refusal.ts';

export const WORLD_MAP_PATH = '/operator/world-map';
const PAGE_DIR = fileURLToPath(new URL('../world-map/', import.meta.url));

/** The page may load only its own script and style, and may not be framed. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

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
    res.json({ worlds: [...metrics.worlds.values()].map((w) => worldSummary(w, metrics.lastTickSeconds(w.roomId))) });
  });
  router.get(`${WORLD_MAP_PATH}/api/worlds/:worldId/tiles`, operator, noStore, (req, res) => {
    res.json(worldTiles(world(req.params.worldId)));
  });
  router.get(`${WORLD_MAP_PATH}/api/worlds/:worldId/snapshot`, operator, noStore, (req, res) => {
    const found = world(req.params.worldId);
    res.json(worldSnapshot(found, metrics.lastTickSeconds(found.roomId)));
  });
  // The page and its two files: a prefix middleware, like the monitor (an operator UI, not part of the REST API).
  router.use(WORLD_MAP_PATH, operator, noStore, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' || req.path === '') return res.sendFile(path.join(PAGE_DIR, 'index.html'));
    if (req.path === '/map.js' || req.path === '/map.css') return res.sendFile(path.join(PAGE_DIR, req.path.slice(1)));
    next();
  });
  return router;
}
