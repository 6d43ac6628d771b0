/**
 * Death and gravestones. `killPlayer` (called by combat, and by tests through the room) first tells every feature
 * (an open trade is cancelled), then in ONE transaction takes the lost items out of the inventory and equipment
 * into a new `player_deaths` row (the death lock), restores health and moves the saved position home. The owner
 * claims with `gravestone:claim`; an unclaimed gravestone becomes public ground items when it expires (state.ts).
 * The area also loads the world's ground items and gravestones at start, runs their expiry sweep on the tick
 * (it comes last of the economy areas, so the sweep runs after the shops' restock and the teleport casts) and keeps
 * an emptied world open while any of them is left.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { writeRespawn } from '../../../../src/db/character-stats.ts';
import { insertDeathLock, lockGravestone, markReclaimed, writeGravestoneItems } from '../../../../src/db/player-deaths.ts';
import { checkDeathConservation, claimGravestone, die, keptItems, type Gravestone } from '../../../../src/game/death.ts';
import type { InventoryItem } from '../../../../src/game/inventory.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on } from '../../area.ts';
import { moveItems } from '../../item-moves.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { moveOwnItems, refuse, unwrap, withinReach } from './common.ts';
import { cancelHomeTeleport } from './home-teleport.ts';
import { SWEEP_EVERY_TICKS, worldEconomy, type EconomyWorld, type GravestoneEntity } from './state.ts';

export const ClaimRequest = z.object({ gravestoneId: z.string().min(1).max(64) }).strict();

export interface DeathOutcome {
  gravestone: Gravestone | null;
  kept: InventoryItem[];
}

/**
 * Kills a player: items beyond the kept ones go into a gravestone at the death spot (exactly once: the death row
 * and the emptied slots commit together), then the player respawns at home with full health.
 */
export async function killPlayer(world: WorldApi, player: OnlinePlayer): Promise<DeathOutcome> {
  await world.notifyPlayerDied(player);
  const economy = worldEconomy.of(world);
  cancelHomeTeleport(world, player, 'death');
  const { config } = world.context();
  const { tileSize, home } = world.data.world;
  const spot = { x: player.x, z: player.z };
  const outcome = await moveItems(world, [player.id], async (tx, loaded) => {
    const before = loaded.get(player.id)!;
    const now = Date.now();
    const after = die(before, world.data.itemsById, {
      gravestoneId: randomUUID(), ownerId: player.id, x: spot.x, z: spot.z, now,
      keep: config.itemsKeptOnDeath, gravestoneMs: config.gravestoneSeconds * 1000,
    });
    const conserved = checkDeathConservation(before, after);
    if (!conserved.ok) throw new Error(`death of ${player.id} would not conserve items: ${conserved.message}`);
    const { gravestone } = after;
    if (gravestone) await insertDeathLock(tx, world.worldNumber, gravestone, tileSize, now);
    await writeRespawn(tx, player.id, player.state.maxHealth, home, tileSize);
    const kept = keptItems(after.loadout);
    return { value: { gravestone, kept }, write: new Map([[player.id, { ...before, ...after.loadout }]]) };
  });
  if (outcome.gravestone) economy.placeGravestone(outcome.gravestone, player.name);
  player.state.health = player.state.maxHealth;
  player.state.action = 'idle';
  world.movePlayer(player, { x: home.x, z: home.z });
  player.savedX = home.x;
  player.savedZ = home.z;
  player.client.send('player:died', {
    x: spot.x, z: spot.z,
    gravestone: outcome.gravestone && { id: outcome.gravestone.id, x: spot.x, z: spot.z, expiresAt: outcome.gravestone.expiresAt, items: outcome.gravestone.items },
    kept: outcome.kept,
    respawn: { x: home.x, z: home.z },
  });
  player.client.send('player:sync', player.sync());
  return outcome;
}

/** The player's own gravestone within reach (checked after the interface, by moveOwnItems). */
function claimable(economy: EconomyWorld, player: OnlinePlayer, gravestoneId: string): GravestoneEntity {
  const entity = economy.gravestones.get(gravestoneId);
  if (!entity) throw new GameError('NOT_FOUND', 'There is no such gravestone');
  if (entity.gravestone.ownerId !== player.id) throw new GameError('NOT_YOUR_GRAVESTONE', 'This gravestone belongs to someone else');
  if (!withinReach(player, entity.x, entity.z)) throw new GameError('OUT_OF_REACH', 'Walk closer to the gravestone');
  return entity;
}

async function claim(world: WorldApi, player: OnlinePlayer, gravestoneId: string): Promise<void> {
  const economy = worldEconomy.of(world);
  let entity!: GravestoneEntity;
  const result = await moveOwnItems(world, player, 'claim a gravestone', async (tx, containers) => {
    const gravestone = await lockGravestone(tx, gravestoneId, world.data.world.tileSize);
    if (!gravestone) refuse('EXPIRED', 'the gravestone has crumbled');
    const now = Date.now();
    const claimed = unwrap(claimGravestone(containers.inventory, world.data.itemsById, gravestone, player.id, now));
    if (claimed.gravestone === null) await markReclaimed(tx, gravestoneId, now);
    else await writeGravestoneItems(tx, gravestoneId, claimed.gravestone.items);
    return { value: claimed, after: { ...containers, inventory: claimed.inventory } };
  }, {
    check: () => {
      entity = claimable(economy, player, gravestoneId);
    },
  });
  if (result.gravestone === null) economy.removeGravestone(gravestoneId);
  else entity.gravestone = result.gravestone;
  player.client.send('gravestone:claimed', { gravestoneId, claimed: result.claimed, remaining: result.gravestone?.items ?? [] });
}

export const death = defineArea({
  name: 'death',
  messages: {
    'gravestone:claim': on(ClaimRequest, ({ world, player }, { gravestoneId }) => claim(world, player, gravestoneId)),
  },
  sends: ['player:died', 'gravestone:claimed', 'player:sync'],
  install(world) {
    const economy = worldEconomy.of(world);
    world.onStart(() => economy.load());
    // A world the matchmaker opened closes only once nothing lies in it (docs/worlds.md "Opening and closing").
    world.keepOpenWhile(() => economy.gravestones.size > 0 || economy.ground.size > 0);
    world.onTick((tick) => {
      if (tick % SWEEP_EVERY_TICKS === 0) economy.sweep(Date.now());
    });
  },
});
