/**
 * `player:move`: validate the target, find a path on the tile grid, walk it one tile per tick (two running).
 * `player:run`: the run toggle. Run energy (src/game/run-energy.ts) drains on every tick the player runs and comes
 * back on the others; at 0 running switches off (the rest of the path is walked). The player hears of its energy
 * in `player:sync` and, when the whole percent or the toggle changes, in `player:energy`. The energy is read when
 * the player enters and written when it leaves.
 */
import { z } from 'zod';
import { loadRunEnergy, writeRunEnergy } from '../../../src/db/run-energy.ts';
import { findPath, stepAlong, type WalkGrid } from '../../../src/game/pathfinding.ts';
import { GameError } from '../../../src/game/refusal.ts';
import { MAX_RUN_ENERGY, canRun, carriedWeight, energyPercent, storedEnergy, tickRunEnergy } from '../../../src/game/run-energy.ts';
import type { OnlinePlayer } from '../online-player.ts';
import type { WorldApi } from '../world-api.ts';
import { defineArea, on } from '../area.ts';
import { skillBooks } from '../skill-book.ts';

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

export const RunRequest = z.object({ run: z.boolean() }).strict();

/**
 * Sets the run toggle as a move's `run` asks: on only with energy to run (otherwise it stays off and the player
 * walks: a move is never refused for energy).
 */
function askToRun(player: OnlinePlayer, run: boolean): void {
  player.state.running = run && canRun(player.runEnergy);
}

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
  // Without `run` the toggle decides (player:run); with it, the move sets the toggle.
  if (request.run !== undefined) askToRun(player, request.run);
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

function energyEvent(player: OnlinePlayer): void {
  player.client.send('player:energy', { runEnergy: energyPercent(player.runEnergy), running: player.state.running });
}

/** One tick of a player's run energy: drained if it ran, restored otherwise; the toggle off at 0. */
function tickEnergy(world: WorldApi, player: OnlinePlayer, ran: boolean): void {
  const before = { energy: player.runEnergy, running: player.state.running };
  if (!ran && before.energy >= MAX_RUN_ENERGY) return;
  const agilityLevel = skillBooks.peek(player)?.levels.agility ?? 1;
  const weightKg = ran ? carriedWeight(player.containers, world.data.itemsById) : 0;
  const after = tickRunEnergy(before, { ran, weightKg, agilityLevel });
  player.runEnergy = after.energy;
  if (after.running !== before.running) {
    player.state.running = after.running;
    world.markChanged(player);
  }
  if (after.running !== before.running || energyPercent(after.energy) !== energyPercent(before.energy)) energyEvent(player);
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
    'player:run': on(RunRequest, ({ world, player }, { run }) => {
      if (run && !canRun(player.runEnergy)) throw new GameError('NO_RUN_ENERGY', 'You have no energy left to run');
      player.state.running = run;
      world.markChanged(player);
      energyEvent(player);
    }),
  },
  sends: ['player:path', 'player:energy'],
  install(world) {
    world.onPlayerJoin(async (player) => {
      player.runEnergy = storedEnergy(await loadRunEnergy(world.context().db, player.id));
    });
    // Safe to lose: a failed write is logged, and the leave goes on saving the rest.
    world.onPlayerLeave((player) => writeRunEnergy(world.context().db, world.fence(), player.id, player.runEnergy)
      .catch((error: unknown) => world.context().logger.warn({ err: error, characterId: player.id }, 'could not save the run energy')));
    world.onTick(() => {
      for (const player of world.players()) {
        const fromX = player.x;
        const fromZ = player.z;
        const running = player.state.running;
        const moved = advance(player);
        if (moved) {
          world.grid.move(player, fromX, fromZ);
          world.markChanged(player);
        }
        tickEnergy(world, player, moved && running);
      }
    });
  },
});
