/** `player:move`: validate the target, find a path on the tile grid, walk it one tile per tick (two running). */
import { z } from 'zod';
import { findPath, stepAlong, type WalkGrid } from '../../../src/game/pathfinding.ts';
import { GameError } from '../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../online-player.ts';
import { defineArea, on } from '../area.ts';

/** Longest walk one request may ask for, in tiles (Chebyshev). */
export const MAX_MOVE_DISTANCE = 64;

export const MoveRequest = z.union([
  z.object({ cancel: z.literal(true) }).strict(),
  z.object({
    x: z.number().int().min(-1_000_000).max(1_000_000),
    z: z.number().int().min(-1_000_000).max(1_000_000),
    run: z.boolean().optional(),
  }).strict(),
]);
export type MoveRequest = z.infer<typeof MoveRequest>;

/** Sets (or cancels) the player's path; throws a GameError when the target is refused. Changes nothing then. */
export function planMove(grid: WalkGrid, player: OnlinePlayer, request: MoveRequest): void {
  if ('cancel' in request) {
    player.path = [];
    player.state.action = 'idle';
    return;
  }
  const result = findPath(grid, { x: player.x, z: player.z }, { x: request.x, z: request.z }, { maxDistance: MAX_MOVE_DISTANCE });
  if (!result.ok) throw new GameError(result.code, result.message);
  player.path = result.value;
  player.state.running = request.run ?? false;
  player.state.action = player.path.length > 0 ? 'walking' : 'idle';
}

/** Advances the player along its path for one tick; returns whether it moved. */
export function advance(player: OnlinePlayer): boolean {
  if (player.path.length === 0) return false;
  const step = stepAlong(player.path, player.state.running);
  player.path = step.remaining;
  if (step.position) player.placeAt(step.position);
  if (player.path.length === 0) player.state.action = 'idle';
  return step.position !== null;
}

export const movement = defineArea({
  name: 'movement',
  messages: {
    'player:move': on(MoveRequest, ({ world, player, client }, request) => {
      player.assertFree('move');
      planMove(world.blocked, player, request);
      world.markChanged(player);
      client.send('player:path', { x: player.x, z: player.z, running: player.state.running, path: player.path });
    }),
  },
  sends: ['player:path'],
  install(world) {
    world.onTick(() => {
      for (const player of world.players()) {
        const fromX = player.x;
        const fromZ = player.z;
        if (advance(player)) {
          world.grid.move(player, fromX, fromZ);
          world.markChanged(player);
        }
      }
    });
  },
});
