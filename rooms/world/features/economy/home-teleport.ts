/**
 * `player:homeTeleport`: a cast of HOME_TELEPORT_CAST_TICKS ticks, then the player stands on the home tile. Moving,
 * combat, a trade or death interrupt it; a completed teleport starts a cooldown of HOME_TELEPORT_COOLDOWN_SECONDS.
 * The rules are src/game/teleport.ts; the casts and cooldowns are kept per world (the cooldown outlives a rejoin).
 */
import { z } from 'zod';
import { GameError } from '../../../../src/game/refusal.ts';
import { homeTeleportRefusal, startCast, stepCast, type TeleportCast } from '../../../../src/game/teleport.ts';
import { WorldSlot, defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';

interface Teleports {
  /** Character id → the cast in progress. */
  readonly casts: Map<string, TeleportCast>;
  /** Character id → time (ms) from which the next home teleport is allowed. */
  readonly readyAt: Map<string, number>;
}

export const teleports = new WorldSlot<Teleports>('teleports', () => ({ casts: new Map(), readyAt: new Map() }));

export function cancelHomeTeleport(world: WorldApi, player: OnlinePlayer, reason: string): void {
  if (!teleports.of(world).casts.delete(player.id)) return;
  if (player.state.action === 'teleporting') player.state.action = player.path.length > 0 ? 'walking' : 'idle';
  world.markChanged(player);
  player.client.send('homeTeleport:interrupted', { reason });
}

function begin(world: WorldApi, player: OnlinePlayer): void {
  player.assertFree('teleport');
  const state = teleports.of(world);
  const tick = world.currentTick();
  const refusal = homeTeleportRefusal(state.casts.has(player.id), player.inCombatUntilTick > tick, state.readyAt.get(player.id) ?? 0, Date.now());
  if (refusal) throw new GameError(refusal.code, refusal.message, 'details' in refusal ? refusal.details : undefined);
  const castTicks = world.context().config.homeTeleportCastTicks;
  player.path = [];
  player.state.action = 'teleporting';
  world.markChanged(player);
  const cast = startCast(player.x, player.z, tick, castTicks);
  state.casts.set(player.id, cast);
  player.client.send('homeTeleport:started', { castTicks, completesAtTick: cast.completesAtTick });
}

/** One tick of every cast: interrupted, completed (the player stands home), or still casting. */
function advanceCasts(world: WorldApi, tick: number): void {
  const state = teleports.of(world);
  for (const [id, cast] of state.casts) {
    const player = world.player(id);
    if (!player) {
      state.casts.delete(id);
      continue;
    }
    const step = stepCast(cast, {
      x: player.x, z: player.z, walking: player.path.length > 0, inCombat: player.inCombatUntilTick > tick, lock: player.lock,
    }, tick);
    if ('interrupted' in step) cancelHomeTeleport(world, player, step.interrupted);
    else if ('completed' in step) {
      state.casts.delete(id);
      const { home } = world.data.world;
      world.movePlayer(player, { x: home.x, z: home.z });
      player.state.action = 'idle';
      state.readyAt.set(id, Date.now() + world.context().config.homeTeleportCooldownSeconds * 1000);
      player.client.send('homeTeleport:completed', { x: home.x, z: home.z });
      player.client.send('player:sync', player.sync());
    }
  }
}

export const teleport = defineArea({
  name: 'teleport',
  messages: {
    'player:homeTeleport': on(z.object({}).strict(), ({ world, player }) => begin(world, player)),
  },
  sends: ['homeTeleport:started', 'homeTeleport:interrupted', 'homeTeleport:completed', 'player:sync'],
  install(world) {
    world.onTick((tick) => advanceCasts(world, tick));
  },
});
