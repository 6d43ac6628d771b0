/**
 * Gathering (woodcutting, mining, fishing on resource nodes) and processing (firemaking, cooking, smithing,
 * fletching, runecrafting recipes). Each success is one item transaction (moveItems: locked, read from the
 * database, the pure rule of src/game, diff written, committed, then memory); experience follows the commit.
 */
import { randomUUID } from 'node:crypto';
import { burnOut, lightFire, processRecipe, stationAccepts, type Fire, type WorkPlace } from '../../../../src/game/processing.ts';
import { gatherTick, gatherableActions, gatherChance, type GatheringContext } from '../../../../src/game/gathering.ts';
import type { Skill } from '../../../../src/game/skills.ts';
import type { RecipeSkill } from '../../../../src/manifests/game-data.ts';
import type { Recipe } from '../../../../src/manifests/schemas/skilling.ts';
import type { ItemAmount } from '../../../../src/game/items.ts';
import { placedStationTiles } from '../../../../src/manifests/blocked-tiles.ts';
import type { TileRect } from '../../../../src/manifests/schemas/common.ts';
import { FireState } from '../../../../schema/world-state.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { moveItems } from '../../item-moves.ts';
import { InterestScratch, type TrackedEntity } from '../../interest.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { ResourceEntity } from '../../world-entities.ts';
import { insertGroundItems } from '../../../../src/db/ground-items.ts';
import { fencedTransaction } from '../../../../src/db/transaction.ts';
import { distanceToRect } from '../../../../src/game/geometry.ts';
import { worldEconomy } from '../economy/state.ts';
import { defineArea, WorldSlot } from '../../area.ts';
import { activities, random, reachOrApproach, startActivity, stopActivity, tileRect, walkedAway, type Activity } from './activity.ts';
import { grantXp, skillBooks } from '../../skill-book.ts';
import { TICK_MS } from '../../../../src/game/ticks.ts';

/** A lit fire: cooking spot, burns out into its recipe's remains (ashes) on the ground. */
export class FireEntity extends InterestScratch implements TrackedEntity {
  readonly kind = 'fire' as const;
  readonly id: string;
  readonly fire: Fire;
  readonly state: FireState;

  constructor(id: string, fire: Fire) {
    super();
    this.id = id;
    this.fire = fire;
    this.state = new FireState();
    Object.assign(this.state, { id, x: fire.x, z: fire.z, expiresAt: fire.expiresAt });
  }

  get x(): number {
    return this.fire.x;
  }

  get z(): number {
    return this.fire.z;
  }

  snapshot(): Record<string, unknown> {
    return { kind: 'fire', id: this.id, x: this.fire.x, z: this.fire.z, expiresAt: this.fire.expiresAt };
  }

  delta(): Record<string, unknown> {
    return { kind: 'fire', id: this.id };
  }
}

/** The world's resource nodes, fires and depletion timers (per world). */
export class WorkWorld {
  readonly world: WorldApi;
  readonly fires = new Map<string, FireEntity>();
  /** Resource entity id → world time (ms, from ticks) at which it comes back. */
  readonly depletedUntil = new Map<string, number>();
  private resources: Map<string, ResourceEntity> | undefined;

  constructor(world: WorldApi) {
    this.world = world;
  }

  /** World time from the tick counter: deterministic, and pauses with the world. */
  now(): number {
    return this.world.currentTick() * TICK_MS;
  }

  resource(id: string): ResourceEntity | undefined {
    if (!this.resources) {
      this.resources = new Map();
      const { width, depth } = this.world.data.world;
      // Resource nodes never move: find them once through the spatial grid.
      this.world.grid.forEachNear(width / 2, depth / 2, Math.max(width, depth), (entity) => {
        if (entity instanceof ResourceEntity) this.resources!.set(entity.id, entity);
      });
    }
    return this.resources.get(id);
  }

  fireAt(x: number, z: number): FireEntity | undefined {
    for (const fire of this.fires.values()) if (fire.x === x && fire.z === z) return fire;
    return undefined;
  }

  tick(): void {
    const now = this.now();
    for (const [id, until] of this.depletedUntil) {
      if (now < until) continue;
      this.depletedUntil.delete(id);
      const entity = this.resource(id);
      if (entity) {
        entity.state.depleted = false;
        this.world.markChanged(entity);
      }
    }
    for (const fire of [...this.fires.values()]) {
      if (Date.now() >= fire.fire.expiresAt) void this.burnOut(fire);
    }
  }

  private async burnOut(entity: FireEntity): Promise<void> {
    if (!this.fires.delete(entity.id)) return;
    this.world.removeEntity(entity);
    const economy = worldEconomy.of(this.world);
    const remains = burnOut(entity.fire, this.world.data.itemsById, () => randomUUID(), economy.groundTimings());
    try {
      await fencedTransaction(this.world.context().db, this.world.fence(), (tx) => insertGroundItems(tx, this.world.worldNumber, remains));
      economy.placeGround(remains);
    } catch (error) {
      this.world.context().logger.error({ err: error }, 'placing the remains of a fire failed');
    }
  }
}

/** The world's resource nodes and fires. */
export const workWorlds = new WorldSlot('work', (world) => new WorkWorld(world));

/**
 * Resource nodes coming back and fires burning out, on the tick. The actions themselves (gathering, processing)
 * come through the skills area's `player:action`; this module runs their steps.
 */
export const resources = defineArea({
  name: 'resources',
  messages: {},
  sends: [],
  install(world) {
    world.onTick(() => workWorlds.of(world).tick());
  },
});

// ── Gathering ────────────────────────────────────────────────────────────────────────────────────────

function gatheringContext(world: WorldApi, player: OnlinePlayer, node: ResourceEntity, containers = player.containers): GatheringContext {
  const work = workWorlds.of(world);
  const resource = world.data.resourcesById.get(node.state.resourceId)!;
  const skill = resource.skill as keyof typeof world.data.gathering;
  return {
    node: { resourceId: resource.id, depletedUntil: work.depletedUntil.get(node.id) ?? null },
    resource,
    actions: world.data.gathering[skill] ?? [],
    level: skillBooks.of(player).levels[resource.skill as Skill],
    inventory: containers.inventory,
    equipment: containers.equipment,
    items: world.data.itemsById,
    tools: world.data.toolsByItemId,
    now: work.now(),
  };
}

export function startGathering(world: WorldApi, player: OnlinePlayer, targetId: string): void {
  const node = workWorlds.of(world).resource(targetId);
  if (!node) throw new GameError('NOT_FOUND', 'There is no such resource');
  const checked = gatherableActions(gatheringContext(world, player, node));
  if (!checked.ok) throw new GameError(checked.code, checked.message);
  const activity = startActivity(player, { kind: 'gather', targetId, nextTick: world.currentTick() + 1, data: {} });
  reachOrApproach(world, player, activity, tileRect(node.x, node.z));
  player.client.send('action:started', { action: 'gather', targetId });
}

function gatherStep(world: WorldApi, player: OnlinePlayer, activity: Activity): void {
  const work = workWorlds.of(world);
  const node = work.resource(activity.targetId!)!;
  if (!reachOrApproach(world, player, activity, tileRect(node.x, node.z))) return;
  const resource = world.data.resourcesById.get(node.state.resourceId)!;
  const candidates = gatherableActions(gatheringContext(world, player, node));
  if (!candidates.ok) return stopActivity(world, player, candidates.code, candidates.message);
  if (player.state.action !== resource.skill) {
    player.state.action = resource.skill;
    world.markChanged(player);
  }
  // The roll happens here; only a success opens a transaction, which re-runs the rule on the locked inventory.
  const level = skillBooks.of(player).levels[resource.skill as Skill];
  const chosen = candidates.value.find(({ action, tool }) => random() < gatherChance(action, level, tool));
  if (!chosen) return;
  const depleteRoll = random();
  activity.busy = true;
  void moveItems(world, [player.id], async (_tx, loaded) => {
    const containers = loaded.get(player.id)!;
    const ctx = { ...gatheringContext(world, player, node, containers), actions: [chosen.action] };
    const rolls = [0, depleteRoll];
    const outcome = gatherTick(ctx, () => rolls.shift() ?? 0);
    if (!outcome.ok) throw new GameError(outcome.code, outcome.message);
    return { value: outcome.value, write: new Map([[player.id, { ...containers, inventory: outcome.value.inventory }]]) };
  }).then((outcome) => {
    activity.busy = false;
    if (outcome.depleted && outcome.node.depletedUntil !== null) {
      work.depletedUntil.set(node.id, outcome.node.depletedUntil);
      node.state.depleted = true;
      world.markChanged(node);
    }
    player.client.send('gather:success', { targetId: node.id, resourceId: resource.id, actionId: outcome.actionId, items: outcome.gained, depleted: outcome.depleted });
    grantXp(world, player, resource.skill as Skill, outcome.xpTenths);
    if (outcome.depleted) stopGatheringAt(world, node.id);
  }, (error: unknown) => {
    activity.busy = false;
    const code = error instanceof GameError ? error.code : 'INTERNAL_ERROR';
    if (!(error instanceof GameError)) world.context().logger.error({ err: error, characterId: player.id }, 'gathering failed');
    stopActivity(world, player, code);
  });
}

/** Everyone working a node that just depleted stops. */
function stopGatheringAt(world: WorldApi, nodeId: string): void {
  for (const player of world.players()) {
    const activity = activities.peek(player);
    if (activity?.kind === 'gather' && activity.targetId === nodeId) stopActivity(world, player, 'NODE_DEPLETED');
  }
}

// ── Processing ───────────────────────────────────────────────────────────────────────────────────────

export function findRecipe(world: WorldApi, recipeId: string): { recipe: Recipe; skill: RecipeSkill } | undefined {
  for (const [skill, recipes] of Object.entries(world.data.recipes) as Array<[RecipeSkill, readonly Recipe[]]>) {
    const recipe = recipes.find((r) => r.id === recipeId);
    if (recipe) return { recipe, skill };
  }
  return undefined;
}

interface Place {
  at: WorkPlace;
  rect: TileRect | null;
}

/** Where the recipe can be made: the given target (a fire id or `station-<n>`), else the nearest suitable place. */
function workPlace(world: WorldApi, player: OnlinePlayer, recipe: Recipe, skill: RecipeSkill, targetId: string | undefined): Place {
  if (skill === 'firemaking' || recipe.station === null) return { at: null, rect: null };
  const work = workWorlds.of(world);
  const places: Array<{ id: string; at: WorkPlace; rect: TileRect }> = [];
  for (const fire of work.fires.values()) places.push({ id: fire.id, at: 'fire', rect: tileRect(fire.x, fire.z) });
  world.data.spawns.stations.forEach((spawn, index) => {
    const type = world.data.stationsById.get(spawn.stationId)?.type;
    if (type) places.push({ id: `station-${index}`, at: type, rect: placedStationTiles(world.data, spawn) });
  });
  if (targetId !== undefined) {
    const place = places.find((p) => p.id === targetId);
    if (!place) throw new GameError('NOT_FOUND', 'There is no such fire or station');
    if (!stationAccepts(recipe, skill, place.at)) throw new GameError('WRONG_STATION', `this has to be made at a ${recipe.station}`);
    return place;
  }
  const suitable = places.filter((p) => stationAccepts(recipe, skill, p.at))
    .sort((a, b) => distanceToRect(player.x, player.z, a.rect) - distanceToRect(player.x, player.z, b.rect));
  if (suitable.length === 0 || distanceToRect(player.x, player.z, suitable[0].rect) > 16) {
    throw new GameError('WRONG_STATION', `this has to be made at a ${recipe.station}${skill === 'cooking' ? ' or a fire' : ''}`);
  }
  return suitable[0];
}

export function startProcessing(world: WorldApi, player: OnlinePlayer, recipeId: string, targetId: string | undefined, count: number | undefined): void {
  const found = findRecipe(world, recipeId);
  if (!found) throw new GameError('UNKNOWN_RECIPE', `No recipe '${recipeId}'`);
  const { recipe, skill } = found;
  const place = workPlace(world, player, recipe, skill, targetId);
  const level = skillBooks.of(player).levels[skill];
  const ctx = { skill, level, inventory: player.containers.inventory, items: world.data.itemsById, at: place.rect ? place.at : null };
  const checked = skill === 'firemaking'
    ? lightFire(recipe, { ...ctx, x: player.x, z: player.z, isBlocked: () => false, hasFire: (x, z) => workWorlds.of(world).fireAt(x, z) !== undefined, now: Date.now() }, () => 1)
    : processRecipe(recipe, { ...ctx, at: place.at }, () => 1);
  if (!checked.ok) throw new GameError(checked.code, checked.message);
  const activity = startActivity(player, {
    kind: 'process', targetId, nextTick: world.currentTick() + 1,
    data: { recipeId, skill, rect: place.rect, at: place.at, remaining: count ?? Number.POSITIVE_INFINITY },
  });
  if (place.rect) reachOrApproach(world, player, activity, place.rect);
  player.client.send('action:started', { action: 'process', recipeId, targetId: targetId ?? null });
}

interface MadeOnce {
  fire: Fire | null;
  /** Tenths of a point. */
  xpTenths: number;
  produced: readonly ItemAmount[];
  result: 'success' | 'failure';
}

function processStep(world: WorldApi, player: OnlinePlayer, activity: Activity): void {
  const { recipeId, skill, rect, at } = activity.data as { recipeId: string; skill: RecipeSkill; rect: TileRect | null; at: WorkPlace };
  const recipe = findRecipe(world, recipeId)!.recipe;
  if (rect && !reachOrApproach(world, player, activity, rect)) return;
  if (player.state.action !== skill) {
    player.state.action = skill;
    world.markChanged(player);
  }
  const level = skillBooks.of(player).levels[skill];
  const work = workWorlds.of(world);
  const rolls = [random()];
  activity.busy = true;
  void moveItems<MadeOnce>(world, [player.id], async (_tx, loaded) => {
    const containers = loaded.get(player.id)!;
    const ctx = { skill, level, inventory: containers.inventory, items: world.data.itemsById, at };
    if (skill === 'firemaking') {
      const lit = lightFire(recipe, {
        ...ctx, x: player.x, z: player.z, isBlocked: (x, z) => world.blocked.isBlocked(x, z),
        hasFire: (x, z) => work.fireAt(x, z) !== undefined, now: Date.now(),
      }, () => rolls.shift() ?? 1);
      if (!lit.ok) throw new GameError(lit.code, lit.message);
      return { value: { fire: lit.value.fire, xpTenths: lit.value.xpTenths, produced: [], result: lit.value.fire ? 'success' : 'failure' }, write: new Map([[player.id, { ...containers, inventory: lit.value.inventory }]]) };
    }
    const made = processRecipe(recipe, ctx, () => rolls.shift() ?? 1);
    if (!made.ok) throw new GameError(made.code, made.message);
    return { value: { fire: null, xpTenths: made.value.xpTenths, produced: made.value.produced, result: made.value.result }, write: new Map([[player.id, { ...containers, inventory: made.value.inventory }]]) };
  }).then((outcome) => {
    activity.busy = false;
    if (skill === 'firemaking') {
      if (!outcome.fire) return; // not lit this time: try again next round, nothing used
      const entity = new FireEntity(`fire-${randomUUID()}`, outcome.fire);
      work.fires.set(entity.id, entity);
      world.addEntity(entity);
      player.client.send('fire:lit', { fireId: entity.id, x: entity.x, z: entity.z, expiresAt: outcome.fire.expiresAt });
      grantXp(world, player, 'firemaking', outcome.xpTenths);
      return stopActivity(world, player, 'DONE');
    }
    player.client.send('process:made', { recipeId, result: outcome.result, items: outcome.produced });
    grantXp(world, player, skill as Skill, outcome.xpTenths);
    const remaining = (activity.data.remaining as number) - 1;
    activity.data.remaining = remaining;
    if (remaining <= 0) stopActivity(world, player, 'DONE');
  }, (error: unknown) => {
    activity.busy = false;
    const code = error instanceof GameError ? error.code : 'INTERNAL_ERROR';
    if (!(error instanceof GameError)) world.context().logger.error({ err: error, characterId: player.id }, 'processing failed');
    // Running out of inputs is the normal end of a batch.
    stopActivity(world, player, code === 'MISSING_ITEMS' ? 'DONE' : code);
  });
}

/** One tick of gathering or processing for a player. */
export function workStep(world: WorldApi, player: OnlinePlayer, activity: Activity, tick: number): void {
  if (activity.busy || tick < activity.nextTick) return;
  if (walkedAway(player, activity)) return stopActivity(world, player, 'MOVED');
  try {
    if (activity.kind === 'gather') {
      gatherStep(world, player, activity);
      activity.nextTick = tick + 1;
    } else {
      const recipe = findRecipe(world, activity.data.recipeId as string)!.recipe;
      const wasApproaching = activity.approaching;
      processStep(world, player, activity);
      // The first attempt is made on arrival; then one per `recipe.ticks`.
      activity.nextTick = activity.approaching || wasApproaching ? tick + 1 : tick + recipe.ticks;
    }
  } catch (error) {
    if (error instanceof GameError) return stopActivity(world, player, error.code, error.message);
    throw error;
  }
}
