/**
 * Fighting on the 600 ms tick: the player's attack on an NPC, or on another player where both stand in a PvP area
 * (melee, or ranged with ammunition — an arrow is one item transaction), active prayers' effects, NPC retaliation,
 * aggression and chasing (leashed to the spawn), `combat:hit` to players in range, NPC death (drops owned by the
 * killer as ground items and the npc_kills upsert in one transaction), respawn, player death through the
 * economy's killPlayer, and slow constitution regeneration. The rules are those of src/game/combat.ts on the level
 * scale (NPC behaviour: src/game/npc-behaviour.ts); world health is HEALTH_SCALE (10) times that. The combat area
 * runs the NPCs on the tick; the player's attack is an activity of the skills area (`player:action`).
 */
import { randomUUID } from 'node:crypto';
import { insertGroundItems } from '../../../../src/db/ground-items.ts';
import { recordNpcKill } from '../../../../src/db/npc-kills.ts';
import { fencedTransaction } from '../../../../src/db/transaction.ts';
import {
  MELEE_STYLES, RANGED_STYLES, attackInterval, attackRange, canAttackPlayer, combatTypeOf, consumeAmmunition,
  npcAttack, playerAttack, type AttackOutcome, type AttackStyle, type PlayerFighter,
} from '../../../../src/game/combat.ts';
import { HEALTH_SCALE } from '../../../../src/game/constants.ts';
import { rollDrops } from '../../../../src/game/drops.ts';
import { chebyshev, insideRect } from '../../../../src/game/geometry.ts';
import { placeLoot } from '../../../../src/game/ground-items.ts';
import {
  AGGRESSION_SCAN_TILES, IN_COMBAT_TICKS, chaseStep, losesTarget, npcBusy, npcMove, pickAggressionTarget, regenerateHealth,
  retaliation, type AggressionCandidate,
} from '../../../../src/game/npc-behaviour.ts';
import { prayerBoosts } from '../../../../src/game/prayer.ts';
import type { Skill } from '../../../../src/game/skills.ts';
import type { NpcCombat } from '../../../../src/manifests/schemas/npcs.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { defineArea, PlayerSlot, WorldSlot } from '../../area.ts';
import { moveItems } from '../../item-moves.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { NpcEntity } from '../../world-entities.ts';
import { killPlayer } from '../economy/death.ts';
import { worldEconomy } from '../economy/state.ts';
import { markNpcsBusy, moveNpc, spawnWanderRadius } from '../npcs/wander.ts';
import { activities, random, reachOrApproach, startActivity, stopActivity, tileRect, walkedAway, type Activity } from './activity.ts';
import { grantCombatXp, skillBooks } from '../../skill-book.ts';

export const ATTACK_STYLES = [...new Set<string>([...MELEE_STYLES, ...RANGED_STYLES])] as AttackStyle[];

export class NpcFighter {
  readonly entity: NpcEntity;
  readonly combat: NpcCombat;
  readonly spawnX: number;
  readonly spawnZ: number;
  /** Spawned by an admin: does not come back after dying. */
  readonly temporary: boolean;
  /** Tiles from the spawn it may wander while idle; outside them an idle NPC walks back. */
  readonly wanderRadius: number;
  targetId: string | null = null;
  nextAttackTick = 0;
  lastHitTick = -Infinity;
  respawnAtTick: number | null = null;

  constructor(entity: NpcEntity, combat: NpcCombat, temporary: boolean, wanderRadius = 0) {
    this.entity = entity;
    this.combat = combat;
    this.spawnX = entity.x;
    this.spawnZ = entity.z;
    this.temporary = temporary;
    this.wanderRadius = wanderRadius;
  }

  get dead(): boolean {
    return this.entity.state.health <= 0;
  }

  /** The NPC as the behaviour rules see it. */
  view() {
    return {
      at: { x: this.entity.x, z: this.entity.z }, spawn: { x: this.spawnX, z: this.spawnZ }, wanderRadius: this.wanderRadius,
      dead: this.dead, targetId: this.targetId, lastHitTick: this.lastHitTick, nextAttackTick: this.nextAttackTick,
    };
  }

  /** Fighting, hit lately, dead or away from its wander area: not free to wander. */
  busy(tick: number): boolean {
    return npcBusy(this.view(), tick);
  }
}

/** The attack style a player chose last (`accurate` until then). */
export const attackStyles = new PlayerSlot<AttackStyle>('attack-style', () => 'accurate');
/** Progress towards the next regenerated health point of a wounded player. */
export const regenProgress = new PlayerSlot<number>('health-regen', () => 0);
/** Set while the player's death is being resolved: no actions, not a target. */
export const dying = new PlayerSlot<boolean>('dying', () => false);

export class CombatWorld {
  readonly world: WorldApi;
  readonly npcs = new Map<string, NpcFighter>();
  private indexed = false;

  constructor(world: WorldApi) {
    this.world = world;
  }

  /** The world's NPCs that can fight, found once through the spatial grid (spawned ones are added as they come). */
  fighters(): Map<string, NpcFighter> {
    if (!this.indexed) {
      this.indexed = true;
      const { width, depth } = this.world.data.world;
      this.world.grid.forEachNear(width / 2, depth / 2, Math.max(width, depth), (entity) => {
        if (!(entity instanceof NpcEntity) || this.npcs.has(entity.id)) return;
        const combat = this.world.data.npcsById.get(entity.state.npcId)?.combat;
        if (combat) this.npcs.set(entity.id, new NpcFighter(entity, combat, false, spawnWanderRadius(this.world, entity.id)));
      });
    }
    return this.npcs;
  }

  /** Places a new NPC (admin /spawn) next to a tile. */
  spawn(npcId: string, x: number, z: number): NpcEntity {
    const npc = this.world.data.npcsById.get(npcId);
    if (!npc) throw new GameError('UNKNOWN_NPC', `No NPC '${npcId}'`);
    const entity = new NpcEntity(`npc-spawned-${randomUUID()}`, npc.id, npc.name, x, z, (npc.combat?.hitpoints ?? 1) * HEALTH_SCALE);
    this.world.addEntity(entity);
    if (npc.combat) this.fighters().set(entity.id, new NpcFighter(entity, npc.combat, true));
    return entity;
  }
}

/** The world's fighting NPCs. */
export const combatWorlds = new WorldSlot('combat', (world) => new CombatWorld(world));

function inArea(world: WorldApi, x: number, z: number, flag: 'safe' | 'pvp'): boolean {
  for (const area of world.data.areasById.values()) {
    if (area[flag] && insideRect(area.bounds, x, z)) return true;
  }
  return false;
}

/** A player as the combat rules see it: levels, worn equipment, attack style and the active prayers' effects. */
function asFighter(world: WorldApi, player: OnlinePlayer): PlayerFighter {
  const book = skillBooks.of(player);
  return {
    levels: book.snapshot(), equipment: player.containers.equipment, style: attackStyles.of(player),
    prayer: prayerBoosts(book.prayer.active, world.data.prayersById),
  };
}

function weaponOf(world: WorldApi, player: OnlinePlayer) {
  const worn = player.containers.equipment.weapon;
  return worn ? world.data.itemsById.get(worn.itemId) : undefined;
}

// ── The player's attack ──────────────────────────────────────────────────────────────────────────────

/** What a player attacks: an NPC, or another player (PvP). */
type Target = { readonly kind: 'npc'; readonly npc: NpcFighter } | { readonly kind: 'player'; readonly player: OnlinePlayer };

function targetTile(target: Target): { x: number; z: number } {
  return target.kind === 'npc' ? { x: target.npc.entity.x, z: target.npc.entity.z } : { x: target.player.x, z: target.player.z };
}

/**
 * Why `attacker` may not fight `other` now, or null: the same rules when starting and on every swing (either may
 * have walked out of the PvP area, or a trade may hold either interface).
 */
function pvpRefusal(world: WorldApi, attacker: OnlinePlayer, other: OnlinePlayer): GameError | null {
  const allowed = canAttackPlayer(attacker.id, other.id, inArea(world, attacker.x, attacker.z, 'pvp'), inArea(world, other.x, other.z, 'pvp'));
  if (!allowed.ok) return new GameError(allowed.code, allowed.message);
  if (attacker.lock) return new GameError('INTERFACE_BLOCKED', `Cannot fight during a ${attacker.lock}`);
  if (other.lock) return new GameError('PLAYER_BUSY', `${other.name} is busy`);
  return null;
}

export function startAttack(world: WorldApi, player: OnlinePlayer, targetId: string, style: AttackStyle | undefined): void {
  const combat = combatWorlds.of(world);
  if (style !== undefined && !ATTACK_STYLES.includes(style)) throw new GameError('INVALID_STYLE', `Unknown attack style '${String(style)}'`);
  let target: Target;
  const other = world.player(targetId);
  if (other) {
    const refusal = pvpRefusal(world, player, other);
    if (refusal) throw refusal;
    if (dying.of(other)) throw new GameError('NOT_FOUND', 'That player is dead');
    target = { kind: 'player', player: other };
  } else {
    const npc = combat.fighters().get(targetId);
    if (!npc) throw new GameError('NOT_FOUND', 'There is no NPC or player to attack with that id');
    if (npc.dead) throw new GameError('NOT_FOUND', 'That NPC is dead');
    target = { kind: 'npc', npc };
  }
  const at = targetTile(target);
  if (chebyshev(player, at) > 64) throw new GameError('TOO_FAR', 'That target is too far away');
  if (style !== undefined) attackStyles.set(player, style);
  const activity = startActivity(player, { kind: 'attack', targetId, nextTick: world.currentTick() + 1, data: { chaseX: at.x, chaseZ: at.z } });
  const range = attackRange(weaponOf(world, player), attackStyles.of(player));
  reachOrApproach(world, player, activity, tileRect(at.x, at.z), range);
  player.client.send('action:started', { action: 'attack', targetId, style: attackStyles.of(player) });
}

/** The activity's target if it can still be fought, else the reason to stop. */
function currentTarget(world: WorldApi, player: OnlinePlayer, targetId: string): Target | { stop: string; message?: string } {
  const combat = combatWorlds.of(world);
  const npc = combat.fighters().get(targetId);
  if (npc) return npc.dead ? { stop: 'TARGET_GONE' } : { kind: 'npc', npc };
  const other = world.player(targetId);
  if (!other || dying.of(other)) return { stop: 'TARGET_GONE' };
  const refusal = pvpRefusal(world, player, other);
  if (refusal) return { stop: refusal.code, message: refusal.message };
  return { kind: 'player', player: other };
}

export function attackStep(world: WorldApi, player: OnlinePlayer, activity: Activity, tick: number): void {
  const target = currentTarget(world, player, activity.targetId!);
  if ('stop' in target) return stopActivity(world, player, target.stop, target.message);
  if (walkedAway(player, activity)) return stopActivity(world, player, 'MOVED');
  const style = attackStyles.of(player);
  const weapon = weaponOf(world, player);
  const at = targetTile(target);
  // A target that moved since the walk was planned (a player, a wandering NPC): plan again towards where it is now.
  if (activity.approaching && (at.x !== activity.data.chaseX || at.z !== activity.data.chaseZ)) player.path = [];
  activity.data.chaseX = at.x;
  activity.data.chaseZ = at.z;
  try {
    if (!reachOrApproach(world, player, activity, tileRect(at.x, at.z), attackRange(weapon, style))) return;
  } catch (error) {
    if (error instanceof GameError) return stopActivity(world, player, error.code, error.message);
    throw error;
  }
  if (activity.busy || tick < activity.nextTick) return;
  activity.nextTick = tick + attackInterval(weapon, style);
  if (player.state.action !== 'fighting') {
    player.state.action = 'fighting';
    world.markChanged(player);
  }
  const defender = () => target.kind === 'npc'
    ? { kind: 'npc' as const, combat: target.npc.combat, hitpoints: Math.ceil(target.npc.entity.state.health / HEALTH_SCALE) }
    : { kind: 'player' as const, fighter: asFighter(world, target.player), hitpoints: Math.ceil(target.player.state.health / HEALTH_SCALE) };
  const data = { items: world.data.itemsById, ammunition: world.data.ammunitionByItemId };
  if (combatTypeOf(weapon) !== 'ranged') {
    const outcome = playerAttack(asFighter(world, player), defender(), data, random);
    if (!outcome.ok) return stopActivity(world, player, outcome.code, outcome.message);
    return landHit(world, player, target, outcome.value, tick);
  }
  // A ranged shot uses one piece of ammunition, hit or miss: the arrow leaves through an item transaction first.
  activity.busy = true;
  void moveItems(world, [player.id], async (_tx, loaded) => {
    const containers = loaded.get(player.id)!;
    const outcome = playerAttack({ ...asFighter(world, player), equipment: containers.equipment }, defender(), data, random);
    if (!outcome.ok) throw new GameError(outcome.code, outcome.message);
    return { value: outcome.value, write: new Map([[player.id, { ...containers, equipment: consumeAmmunition(containers.equipment) }]]) };
  }).then((outcome) => {
    activity.busy = false;
    const still = currentTarget(world, player, activity.targetId!);
    if (!('stop' in still)) landHit(world, player, still, outcome, world.currentTick());
  }, (error: unknown) => {
    activity.busy = false;
    if (!(error instanceof GameError)) world.context().logger.error({ err: error, characterId: player.id }, 'ranged attack failed');
    stopActivity(world, player, error instanceof GameError ? error.code : 'INTERNAL_ERROR');
  });
}

function landHit(world: WorldApi, player: OnlinePlayer, target: Target, outcome: AttackOutcome, tick: number): void {
  player.inCombatUntilTick = tick + IN_COMBAT_TICKS;
  player.lastCombatTick = tick;
  if (target.kind === 'player') {
    hurtPlayer(world, target.player, player.id, outcome.damage, tick);
    for (const [skill, thirds] of Object.entries(outcome.xpThirds) as Array<[Skill, number]>) grantCombatXp(world, player, skill, thirds);
    return;
  }
  const { npc } = target;
  const state = npc.entity.state;
  const damage = Math.min(outcome.damage * HEALTH_SCALE, state.health);
  state.health -= damage;
  state.action = 'fighting';
  npc.lastHitTick = tick;
  world.markChanged(npc.entity);
  world.sendNear(npc.entity.x, npc.entity.z, world.interestRadius, 'combat:hit', {
    attackerId: player.id, targetId: npc.entity.id, damage, targetHealth: state.health, maxHealth: state.maxHealth,
  });
  for (const [skill, thirds] of Object.entries(outcome.xpThirds) as Array<[Skill, number]>) grantCombatXp(world, player, skill, thirds);
  if (state.health <= 0) return void npcDies(world, npc, player, tick);
  const after = retaliation(npc, player.id, tick);
  npc.targetId = after.targetId;
  npc.nextAttackTick = after.nextAttackTick;
}

/**
 * Damage (level scale) dealt to a player by an NPC or another player: health, `combat:hit` to everyone in range,
 * death at 0; otherwise an idle player fights back (auto-retaliate).
 */
function hurtPlayer(world: WorldApi, victim: OnlinePlayer, attackerId: string, levelDamage: number, tick: number): void {
  const damage = Math.min(levelDamage * HEALTH_SCALE, victim.state.health);
  victim.state.health -= damage;
  victim.inCombatUntilTick = tick + IN_COMBAT_TICKS;
  victim.lastCombatTick = tick;
  skillBooks.of(victim).healthDirty = true;
  world.markChanged(victim);
  world.sendNear(victim.x, victim.z, world.interestRadius, 'combat:hit', {
    attackerId, targetId: victim.id, damage, targetHealth: victim.state.health, maxHealth: victim.state.maxHealth,
  });
  if (victim.state.health <= 0) return playerDies(world, victim);
  if (!activities.peek(victim) && victim.path.length === 0 && !victim.lock) {
    startActivity(victim, { kind: 'attack', targetId: attackerId, nextTick: tick + 1, data: {} });
  }
}

// ── NPC death and respawn ───────────────────────────────────────────────────────────────────────────

async function npcDies(world: WorldApi, npc: NpcFighter, killer: OnlinePlayer, tick: number): Promise<void> {
  const economy = worldEconomy.of(world);
  const { entity } = npc;
  const definition = world.data.npcsById.get(entity.state.npcId)!;
  npc.targetId = null;
  npc.respawnAtTick = npc.temporary ? null : tick + npc.combat.respawnTicks;
  entity.state.action = 'dead';
  world.removeEntity(entity);
  if (npc.temporary) combatWorlds.of(world).npcs.delete(entity.id);
  for (const player of world.players()) {
    const activity = activities.peek(player);
    if (activity?.kind === 'attack' && activity.targetId === entity.id) stopActivity(world, player, 'TARGET_DIED');
  }
  const loot = rollDrops(definition.drops, random);
  const piles = placeLoot(loot, world.data.itemsById, {
    x: entity.x, z: entity.z, ownerId: killer.id, now: Date.now(), nextId: () => randomUUID(), timings: economy.groundTimings(),
  });
  try {
    // The drop (an item source) and the kill count commit together.
    await fencedTransaction(world.context().db, world.fence(), async (tx) => {
      await insertGroundItems(tx, world.worldNumber, piles);
      await recordNpcKill(tx, killer.id, definition.id, new Date());
    });
    economy.placeGround(piles);
  } catch (error) {
    world.context().logger.error({ err: error, npcId: definition.id, characterId: killer.id }, 'recording an NPC kill failed');
  }
  world.sendNear(entity.x, entity.z, world.interestRadius, 'npc:died', {
    id: entity.id, npcId: definition.id, killerId: killer.id, x: entity.x, z: entity.z,
    drops: piles.map((p) => ({ groundItemId: p.id, itemId: p.itemId, quantity: p.quantity })),
  });
}

function respawn(world: WorldApi, npc: NpcFighter): void {
  const state = npc.entity.state;
  npc.respawnAtTick = null;
  npc.targetId = null;
  state.health = state.maxHealth;
  npc.entity.placeAt({ x: npc.spawnX, z: npc.spawnZ });
  state.action = 'idle';
  world.addEntity(npc.entity);
}

// ── NPC behaviour ───────────────────────────────────────────────────────────────────────────────────

function stepToward(world: WorldApi, npc: NpcFighter, toward: { x: number; z: number }): void {
  const e = npc.entity;
  const tile = chaseStep({ x: e.x, z: e.z }, toward, { x: npc.spawnX, z: npc.spawnZ }, (x, z) => world.blocked.isBlocked(x, z));
  if (tile) moveNpc(world, e, tile);
}

function npcStep(world: WorldApi, npc: NpcFighter, tick: number): void {
  const target = npc.targetId ? world.player(npc.targetId) : undefined;
  if (npc.targetId && losesTarget(target, target ? dying.of(target) : false, { x: npc.spawnX, z: npc.spawnZ })) {
    npc.targetId = null;
    npc.entity.state.action = 'idle';
    world.markChanged(npc.entity);
  }
  const move = npcMove(npc.view(), target, tick);
  if (move.kind === 'home') return stepToward(world, npc, { x: npc.spawnX, z: npc.spawnZ });
  if (move.kind === 'chase') return stepToward(world, npc, move.toward);
  if (move.kind !== 'attack' || !target) return;
  npc.nextAttackTick = tick + npc.combat.attackSpeed;
  const hit = npcAttack(npc.combat, { fighter: asFighter(world, target), hitpoints: Math.ceil(target.state.health / HEALTH_SCALE) }, world.data.itemsById, random);
  hurtPlayer(world, target, npc.entity.id, hit.damage, tick);
}

function playerDies(world: WorldApi, player: OnlinePlayer): void {
  const combat = combatWorlds.of(world);
  if (dying.of(player)) return;
  dying.set(player, true);
  stopActivity(world, player, 'DIED');
  for (const npc of combat.fighters().values()) if (npc.targetId === player.id) npc.targetId = null;
  for (const other of world.players()) {
    const activity = activities.peek(other);
    if (activity?.kind === 'attack' && activity.targetId === player.id) stopActivity(world, other, 'TARGET_DIED');
  }
  void killPlayer(world, player)
    .then(() => {
      skillBooks.of(player).healthDirty = true;
    })
    .catch((error: unknown) => world.context().logger.error({ err: error, characterId: player.id }, 'player death failed'))
    .finally(() => dying.clear(player));
}

function aggression(world: WorldApi, npc: NpcFighter, tick: number): void {
  const candidates: AggressionCandidate[] = [];
  world.grid.forEachNear(npc.entity.x, npc.entity.z, AGGRESSION_SCAN_TILES, (entity) => {
    if (entity.kind !== 'player') return;
    const player = entity as OnlinePlayer;
    if (dying.of(player) || player.state.action === 'disconnected') return;
    candidates.push({
      id: player.id, at: { x: player.x, z: player.z }, combatLevel: player.state.combatLevel,
      inSafeArea: inArea(world, player.x, player.z, 'safe'), inCombat: player.inCombatUntilTick > tick,
    });
  });
  const chosen = pickAggressionTarget(npc.combat, { x: npc.entity.x, z: npc.entity.z }, candidates);
  if (chosen !== null) {
    npc.targetId = chosen;
    npc.nextAttackTick = Math.max(npc.nextAttackTick, tick + 1);
  }
}

/** One tick of the NPCs (respawns, aggression, chasing, their swings) and of the wounded players' regeneration. */
export function combatTick(world: WorldApi, tick: number): void {
  const combat = combatWorlds.of(world);
  for (const npc of combat.fighters().values()) {
    if (npc.dead) {
      if (npc.respawnAtTick !== null && tick >= npc.respawnAtTick) respawn(world, npc);
      continue;
    }
    if (npc.targetId === null && npc.combat.aggressive) aggression(world, npc, tick);
    npcStep(world, npc, tick);
  }
  for (const player of world.players()) {
    const health = player.state.health;
    const max = player.state.maxHealth;
    if (health >= max || health <= 0) {
      regenProgress.clear(player);
      continue;
    }
    const next = regenerateHealth(health, max, regenProgress.of(player));
    regenProgress.set(player, next.regenTicks);
    if (next.health !== health) {
      player.state.health = next.health;
      skillBooks.of(player).healthDirty = true;
      world.markChanged(player);
    }
  }
}

/** NPC fights on the tick; a fighting NPC does not wander. */
export const combat = defineArea({
  name: 'combat',
  messages: {},
  sends: ['combat:hit', 'npc:died', 'action:stopped'],
  playerState: [attackStyles, regenProgress, dying],
  install(world) {
    world.onTick((tick) => combatTick(world, tick));
    markNpcsBusy(world, (npcEntityId, tick) => combatWorlds.of(world).fighters().get(npcEntityId)?.busy(tick) ?? false);
  },
});
