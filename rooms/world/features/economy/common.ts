/**
 * What the economy handlers share: reach checks (banks, shopkeepers, things on the ground), request validation,
 * turning rule refusals into coded errors, and the one-player item transaction every economy action uses.
 */
import { z } from 'zod';
import { loadSkillLevels } from '../../../../src/db/character-stats.ts';
import type { Containers } from '../../../../src/db/item-transaction.ts';
import type { Transaction } from '../../../../src/db/transaction.ts';
import { chebyshev, distanceToRect } from '../../../../src/game/geometry.ts';
import { MAX_STACK, isValidQuantity } from '../../../../src/game/quantity.ts';
import type { Result } from '../../../../src/game/result.ts';
import type { Levels } from '../../../../src/game/skills.ts';
import { placedStationTiles } from '../../../../src/manifests/blocked-tiles.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { moveItems, type MoveOptions } from '../../item-moves.ts';
import { itemBudgets } from '../../item-budget.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import type { NpcEntity } from '../../world-entities.ts';

/** Banks, shopkeepers, ground items and gravestones are used from at most this many tiles away (Chebyshev). */
export const REACH = 2;

/** A slot number as sent by the client; the rules refuse anything but an integer 0–27 (INVALID_SLOT). */
export const SlotNumber = z.number();
/** A quantity; the rules refuse 0, negatives, fractions and values over 2,147,483,647 (INVALID_QUANTITY). */
export const QuantityValue = z.number();
export const AmountValue = z.union([z.number(), z.literal('all')]);
export const ItemId = z.string().min(1).max(64);

export function withinReach(player: OnlinePlayer, x: number, z: number, reach = REACH): boolean {
  return chebyshev(player, { x, z }) <= reach;
}

/** Whether an NPC accepted by `accept` (given its manifest id) stands within reach of the player. */
export function npcWithinReach(world: WorldApi, player: OnlinePlayer, accept: (npcId: string) => boolean): boolean {
  let found = false;
  world.grid.forEachNear(player.x, player.z, REACH, (entity) => {
    if (!found && entity.kind === 'npc' && accept((entity as NpcEntity).state.npcId)) found = true;
  });
  return found;
}

/** Within reach of a bank booth (a station of type `bank`) or a banker NPC. */
export function isNearBank(world: WorldApi, player: OnlinePlayer): boolean {
  const { data } = world;
  const nearStation = data.spawns.stations.some((spawn) =>
    data.stationsById.get(spawn.stationId)?.type === 'bank' && distanceToRect(player.x, player.z, placedStationTiles(data, spawn)) <= REACH);
  return nearStation || npcWithinReach(world, player, (npcId) => data.npcsById.get(npcId)?.role === 'banker');
}

export function assertNearBank(world: WorldApi, player: OnlinePlayer): void {
  if (!isNearBank(world, player)) throw new GameError('NOT_NEAR_BANK', `Stand within ${REACH} tiles of a bank booth or a banker`);
}

/** Inside an item transaction: a rule's refusal rolls everything back and reaches the client with its code. */
export function unwrap<T>(result: Result<T, string>): T {
  if (!result.ok) throw new GameError(result.code, result.message);
  return result.value;
}

export function refuse(code: string, message: string): never {
  throw new GameError(code, message);
}

export function checkQuantity(value: number): number {
  if (!isValidQuantity(value)) throw new GameError('INVALID_QUANTITY', `quantity must be a whole number from 1 to ${MAX_STACK}, got ${String(value)}`);
  return value;
}

export function checkAmount(value: number | 'all'): number | 'all' {
  return value === 'all' ? value : checkQuantity(value);
}

/** The character's skill levels as committed (read inside the transaction). */
export async function loadLevels(tx: Transaction, characterId: string): Promise<Levels> {
  const levels = await loadSkillLevels(tx, characterId);
  if (!levels) refuse('CHARACTER_NOT_FOUND', 'The character no longer exists');
  return levels;
}

export interface OwnWork<T> {
  value: T;
  /** The player's new containers; omit when nothing of theirs changed. */
  after?: Containers;
}

export interface OwnMoveOptions<T> extends MoveOptions<T> {
  /**
   * The action's own checks before anything is spent (an amount, the reach of a bank, a shop or a gravestone): run
   * after the interface check, so that a held interface is what every economy event is refused for first
   * (docs/economy.md), and the handler needs no interface check of its own.
   */
  check?: () => void;
}

/**
 * An item move of one player: refused while the interface is held (trading) — the one interface check of the
 * event —, then the action's checks, then one transaction over the player's locked, freshly read containers (and
 * bank with `{ bank: true }`). Memory and `player:sync` follow the commit.
 */
export async function moveOwnItems<T>(
  world: WorldApi,
  player: OnlinePlayer,
  action: string,
  work: (tx: Transaction, containers: Containers) => Promise<OwnWork<T>>,
  options: OwnMoveOptions<T> = {},
): Promise<T> {
  const { check, ...moveOptions } = options;
  player.assertFree(action);
  check?.();
  // The one place player-asked item transactions start: each spends the account's budget first (item-budget.ts).
  itemBudgets.of(world).spend(player.accountId);
  return moveItems(world, [player.id], async (tx, loaded) => {
    const { value, after } = await work(tx, loaded.get(player.id)!);
    return { value, write: after ? new Map([[player.id, after]]) : new Map() };
  }, moveOptions);
}
