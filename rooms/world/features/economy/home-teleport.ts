/**
 * `player:homeTeleport`: a cast of HOME_TELEPORT_CAST_TICKS ticks, then the player stands on the home tile. Moving,
 * combat, a trade or death interrupt it; a completed teleport starts a cooldown of HOME_TELEPORT_COOLDOWN_SECONDS.
 */
import { z } from 'zod';
import { GameError } from '../../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { economyOf } from './state.ts';

export function cancelHomeTeleport(world: WorldApi, player: OnlinePlayer, reason: string): void {
  const economy = economyOf(world);
  if (!economy.teleports.delete(player.id)) return;
  if (player.state.action === 'teleporting') player.state.action = player.path.length > 0 ? 'walking' : 'idle';
  world.markChanged(player);
  player.client.send('homeTeleport:interrupted', { reason });
}

export function installHomeTeleport(world: WorldApi): void {
  const economy = economyOf(world);

  world.handle('player:homeTeleport', z.object({}).strict(), (player) => {
    player.assertFree('teleport');
    const tick = world.currentTick();
    if (economy.teleports.has(player.id)) throw new GameError('ALREADY_CASTING', 'You are already teleporting');
    if (player.inCombatUntilTick > tick) throw new GameError('IN_COMBAT', 'You cannot teleport home during combat');
    const readyAt = economy.teleportReadyAt.get(player.id) ?? 0;
    const now = Date.now();
    if (now < readyAt) throw new GameError('COOLDOWN', 'Home teleport is not ready yet', { readyInMs: readyAt - now });
    const castTicks = world.context().config.homeTeleportCastTicks;
    player.path = [];
    player.state.action = 'teleporting';
    world.markChanged(player);
    economy.teleports.set(player.id, { completesAtTick: tick + castTicks, fromX: player.x, fromZ: player.z });
    player.client.send('homeTeleport:started', { castTicks, completesAtTick: tick + castTicks });
  });

  world.onTick((tick) => {
    for (const [id, cast] of economy.teleports) {
      const player = world.player(id);
      if (!player) {
        economy.teleports.delete(id);
        continue;
      }
      if (player.path.length > 0 || player.x !== cast.fromX || player.z !== cast.fromZ) cancelHomeTeleport(world, player, 'moved');
      else if (player.inCombatUntilTick > tick) cancelHomeTeleport(world, player, 'combat');
      else if (player.lock) cancelHomeTeleport(world, player, player.lock);
      else if (tick >= cast.completesAtTick) {
        economy.teleports.delete(id);
        const { home } = world.data.world;
        world.movePlayer(player, { x: home.x, z: home.z });
        player.state.action = 'idle';
        economy.teleportReadyAt.set(id, Date.now() + world.context().config.homeTeleportCooldownSeconds * 1000);
        player.client.send('homeTeleport:completed', { x: home.x, z: home.z });
        player.client.send('player:sync', player.sync());
      }
    }
  });
}
