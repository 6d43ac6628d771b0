/**
 * Prayer: `prayer:activate` / `prayer:deactivate` (rules of src/game/prayer.ts: level, points, one prayer per
 * group), the drain on every tick (slowed by the worn prayer bonus), every prayer switched off at 0 points,
 * recharging at an altar (`player:action {action: "pray"}`) and on death. Points live in the skill book and are
 * written with its batches (`characters.prayer_points`); active prayers are never stored — all are off at login.
 * Combat reads the active prayers' effects (combat.ts, asFighter).
 */
import { z } from 'zod';
import { totalBonuses } from '../../../../src/game/equipment.ts';
import { distanceToRect } from '../../../../src/game/geometry.ts';
import { activatePrayer, deactivatePrayer, drainPrayer, restorePrayer } from '../../../../src/game/prayer.ts';
import { placedStationTiles } from '../../../../src/manifests/blocked-tiles.ts';
import type { TileRect } from '../../../../src/manifests/schemas/common.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, on } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { reachOrApproach, startActivity, stopActivity, walkedAway, type Activity } from './activity.ts';
import { prayerState, skillBooks } from '../../skill-book.ts';

export const PrayerRequest = z.object({ prayerId: z.string().min(1).max(64) }).strict();

/** How far (tiles) `pray` without a target looks for an altar. */
export const ALTAR_SEARCH_TILES = 16;

function sendPrayerState(player: OnlinePlayer): void {
  player.client.send('prayer:state', prayerState(skillBooks.of(player)));
}

function activate(world: WorldApi, player: OnlinePlayer, prayerId: string): void {
  const book = skillBooks.of(player);
  const result = activatePrayer(book.prayer, world.data.prayersById, prayerId, book.levels.prayer);
  if (!result.ok) throw new GameError(result.code, result.message);
  book.setPrayer(result.value.state);
  player.client.send('prayer:activated', { prayerId, deactivated: result.value.deactivated });
  sendPrayerState(player);
}

function deactivate(player: OnlinePlayer, prayerId: string): void {
  const book = skillBooks.of(player);
  const result = deactivatePrayer(book.prayer, prayerId);
  if (!result.ok) throw new GameError(result.code, result.message);
  book.setPrayer(result.value);
  player.client.send('prayer:deactivated', { prayerIds: [prayerId], reason: 'DEACTIVATED' });
  sendPrayerState(player);
}

/** One tick of drain for a player with active prayers; at 0 points all switch off. */
function drain(world: WorldApi, player: OnlinePlayer): void {
  const book = skillBooks.of(player);
  const before = book.prayer;
  if (before.active.length === 0) return;
  const bonus = totalBonuses(player.containers.equipment, world.data.itemsById).prayer;
  const { state, ranOut } = drainPrayer(before, world.data.prayersById, 1, bonus);
  book.setPrayer(state);
  if (ranOut) player.client.send('prayer:deactivated', { prayerIds: [...before.active], reason: 'NO_PRAYER_POINTS' });
  if (state.points !== before.points) sendPrayerState(player);
}

/** Death switches every prayer off and refills the points, as the respawn restores health. */
function onDeath(player: OnlinePlayer): void {
  const book = skillBooks.of(player);
  const active = [...book.prayer.active];
  book.setPrayer({ ...restorePrayer(book.prayer, book.levels.prayer), active: [] });
  if (active.length > 0) player.client.send('prayer:deactivated', { prayerIds: active, reason: 'DIED' });
  sendPrayerState(player);
}

// ── Praying at an altar ──────────────────────────────────────────────────────────────────────────────

/** The altar (`station-<index>` of type `altar`) named, or the nearest within ALTAR_SEARCH_TILES. */
function altarFor(world: WorldApi, player: OnlinePlayer, targetId: string | undefined): { id: string; rect: TileRect } {
  const altars: Array<{ id: string; rect: TileRect }> = [];
  let named: string | undefined;
  world.data.spawns.stations.forEach((spawn, index) => {
    const id = `station-${index}`;
    const type = world.data.stationsById.get(spawn.stationId)?.type;
    if (id === targetId) named = type;
    if (type === 'altar') altars.push({ id, rect: placedStationTiles(world.data, spawn) });
  });
  if (targetId !== undefined) {
    if (named === undefined) throw new GameError('NOT_FOUND', 'There is no such station');
    const altar = altars.find((a) => a.id === targetId);
    if (!altar) throw new GameError('NOT_AN_ALTAR', 'You can only recharge prayer at an altar');
    return altar;
  }
  const nearest = altars.sort((a, b) => distanceToRect(player.x, player.z, a.rect) - distanceToRect(player.x, player.z, b.rect))[0];
  if (!nearest || distanceToRect(player.x, player.z, nearest.rect) > ALTAR_SEARCH_TILES) {
    throw new GameError('NO_ALTAR_NEARBY', `There is no altar within ${ALTAR_SEARCH_TILES} tiles`);
  }
  return nearest;
}

export function startPraying(world: WorldApi, player: OnlinePlayer, targetId: string | undefined): void {
  const altar = altarFor(world, player, targetId);
  const activity = startActivity(player, { kind: 'pray', targetId: altar.id, nextTick: world.currentTick() + 1, data: { rect: altar.rect } });
  reachOrApproach(world, player, activity, altar.rect);
  player.client.send('action:started', { action: 'pray', targetId: altar.id });
}

/** Walks to the altar; beside it, the points are restored to the prayer level and the action ends. */
export function prayStep(world: WorldApi, player: OnlinePlayer, activity: Activity, tick: number): void {
  if (activity.busy || tick < activity.nextTick) return;
  if (walkedAway(player, activity)) return stopActivity(world, player, 'MOVED');
  try {
    if (!reachOrApproach(world, player, activity, activity.data.rect as TileRect)) return;
  } catch (error) {
    if (error instanceof GameError) return stopActivity(world, player, error.code, error.message);
    throw error;
  }
  const book = skillBooks.of(player);
  book.setPrayer(restorePrayer(book.prayer, book.levels.prayer));
  player.client.send('prayer:recharged', { altarId: activity.targetId, points: book.prayer.points, maxPoints: book.levels.prayer });
  sendPrayerState(player);
  stopActivity(world, player, 'DONE');
}

/** Listed after the skills area: its join hook sends the state once the skill book is loaded. */
export const prayer = defineArea({
  name: 'prayer',
  messages: {
    'prayer:activate': on(PrayerRequest, ({ world, player }, { prayerId }) => activate(world, player, prayerId)),
    'prayer:deactivate': on(PrayerRequest, ({ player }, { prayerId }) => deactivate(player, prayerId)),
    'prayer:get': on(z.object({}).strict(), ({ player }) => sendPrayerState(player)),
  },
  sends: ['prayer:state', 'prayer:activated', 'prayer:deactivated', 'prayer:recharged'],
  install(world) {
    world.onPlayerJoin((player) => sendPrayerState(player));
    world.onPlayerDied((player) => onDeath(player));
    world.onTick(() => {
      for (const player of world.players()) drain(world, player);
    });
  },
});
