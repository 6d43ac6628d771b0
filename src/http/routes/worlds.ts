/**
 * The world list (docs/worlds.md), public like a RuneScape world-select screen:
 *
 *   GET /api/v1/worlds   every open world: number, players, capacity, status (open, busy, queueing, full, closing) and
 *                        how many wait in its login queue
 *
 * Read from the matchmaker's room listings (every process' with REDIS_URL), cached for a moment: clients poll it.
 */
import { Router } from 'express';
import { z } from 'zod';
import { admissionOfWorlds } from '../../../rooms/entry/admission-gate.ts';
import { listWorlds } from '../../../rooms/entry/world-choice.ts';
import { defineRoute, NoQuery, type ApiRegistry } from './api-kit.ts';

/** How long one reading of the listings answers the route (and its Cache-Control max-age). */
export const WORLD_LIST_CACHE_SECONDS = 2;

export const WorldSummary = z.object({
  world: z.number().int(),
  players: z.number().int(),
  capacity: z.number().int(),
  status: z.enum(['open', 'busy', 'queueing', 'full', 'closing'])
    .describe('open; busy: its server takes no new logins now; queueing: players wait in its login queue; full: no free seat; closing'),
  queue: z.number().int().describe('players waiting in its login queue (docs/worlds.md)'),
}).meta({ id: 'WorldSummary' });
export const WorldsResponse = z.object({ worlds: z.array(WorldSummary), total: z.number().int() });
type WorldsBody = z.infer<typeof WorldsResponse>;

/** The open worlds as the list shows them (also read by /status). */
export async function worldSummaries(): Promise<WorldsBody['worlds']> {
  const looks = await admissionOfWorlds(await listWorlds());
  return looks.map(({ listing, admission, queue }) => ({
    world: listing.metadata!.world!,
    players: listing.clients,
    capacity: listing.maxClients,
    status: listing.metadata!.status === 'closing' ? 'closing' : admission,
    queue,
  }));
}

export function registerWorldListRoutes(router: Router, registry: ApiRegistry): void {
  let cached: { body: WorldsBody; until: number } | undefined;
  defineRoute(router, registry, {
    method: 'get', path: '/api/v1/worlds', tags: ['world'], query: NoQuery, auth: 'none',
    summary: 'The open worlds: number, players, capacity and status, lowest number first (cached for 2 s)',
    responses: { 200: { description: 'the worlds', schema: WorldsResponse } },
    errors: [400],
  }, async ({ res }) => {
    if (!cached || Date.now() >= cached.until) {
      const worlds = await worldSummaries();
      cached = { body: { worlds, total: worlds.length }, until: Date.now() + WORLD_LIST_CACHE_SECONDS * 1000 };
    }
    res.set('Cache-Control', `public, max-age=${WORLD_LIST_CACHE_SECONDS}`).json(cached.body);
  });
}
