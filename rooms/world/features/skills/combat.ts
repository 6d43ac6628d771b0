/**
 * Fighting on the 600 ms tick: the player's attack on an NPC, or on another player where both stand in a PvP area
 * (melee, or ranged with ammunition — an arrow is one item transaction), active prayers' effects, NPC retaliation,
 * aggression and chasing (leashed to the spawn), `combat:hit` to players in range, NPC death (drops owned by the
 * killer as ground items and the npc_kills upsert in one transaction), respawn, player death through the
 * economy's killPlayer, and slow constitution regeneration. The rules are those of src/game/combat.ts on the level
 * scale; world health is HITPOINTS_SCALE (10) times that.
 */
import { randomUUID } from 'node:crypto';
import {
  MELEE_STYLES, RANGED_STYLES, attackInterval, attackRange, canAttackPlayer, combatTypeOf, consumeAmmunition,
  DEFAULT_REGEN_TICKS, npcAttack, playerAttack, regenerate, shouldAggress, shouldRetaliate,
  type AttackOutcome, type AttackStyle, type PlayerFighter,
} from '../../../../src/game/combat.ts';
import { rollDrops } from '../../../../src/game/drops.ts';
import { placeLoot } from '../../../../src/game/ground-items.ts';
import { prayerBoosts } from '../../../../src/game/prayer.ts';
import type { Skill } from '../../../../src/game/skills.ts';
import type { NpcCombat } from '../../../../src/manifests/schemas/npcs.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { moveItems } from '../../item-moves.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { HITPOINTS_SCALE, NpcEntity } from '../../world-entities.ts';
import { economyOf, killPlayer } from '../economy/index.ts';
import { insertGroundItems } from '../economy/state.ts';
import { activityOf, chebyshev, random, reachOrApproach, startActivity, stopActivity, tileRect, walkedAway, type Activity } from './activity.ts';
import { grantXp, skillsOf } from './skill-book.ts';
import { moveNpc, spawnWanderRadius } from './wander.ts';

/** Ticks a player or NPC counts as "in combat" after a hit. */
export const IN_COMBAT_TICKS = 10;
/** An NPC chases at most this far from its spawn, and gives up on targets farther than this from it. */
export const LEASH_TILES = 10;

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

  /** Fighting, hit lately, dead or away from its wander area: not free to wander. */
  busy(tick: number): boolean {
    return this.dead || this.targetId !== null || tick - this.lastHitTick < IN_COMBAT_TICKS ||
      chebyshev(this.entity, { x: this.spawnX, z: this.spawnZ }) > this.wanderRadius;
  }
}

export class CombatWorld {
  readonly world: WorldApi;
  readonly npcs = new Map<string, NpcFighter>();
  readonly styles = new WeakMap<OnlinePlayer, AttackStyle>();
  readonly regen = new WeakMap<OnlinePlayer, number>();
  readonly dying = new WeakSet<OnlinePlayer>();
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

  styleOf(player: OnlinePlayer): AttackStyle {
    return this.styles.get(player) ?? 'accurate';
  }

  /** Places a new NPC (admin /spawn) next to a tile. */
  spawn(npcId: string, x: number, z: number): NpcEntity {
    const npc = this.world.data.npcsById.get(npcId);
    if (!npc) throw new GameError('UNKNOWN_NPC', `No NPC '${npcId}'`);
    const entity = new NpcEntity(`npc-spawned-${randomUUID()}`, npc.id, npc.name, x, z, (npc.combat?.hitpoints ?? 1) * HITPOINTS_SCALE);
    this.world.addEntity(entity);
    if (npc.combat) this.fighters().set(entity.id, new NpcFighter(entity, npc.combat, true));
    return entity;
  }
}

const combats = new WeakMap<WorldApi, CombatWorld>();

export function combatOf(world: WorldApi): CombatWorld {
  let combat = combats.get(world);
  if (!combat) combats.set(world, (combat = new CombatWorld(world)));
  return combat;
}

function inArea(world: WorldApi, x: number, z: number, flag: 'safe' | 'pvp'): boolean {
  for (const area of world.data.areasById.values()) {
    const b = area.bounds;
    if (area[flag] && x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ) return true;
  }
  return false;
}

/** A player as the combat rules see it: levels, worn equipment, attack style and the active prayers' effects. */
function fighterOf(world: WorldApi, player: OnlinePlayer): PlayerFighter {
  const book = skillsOf(player);
  return {
    levels: book.snapshot(), equipment: player.containers.equipment, style: combatOf(world).styleOf(player),
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
  const combat = combatOf(world);
  if (style !== undefined && !ATTACK_STYLES.includes(style)) throw new GameError('INVALID_STYLE', `Unknown attack style '${String(style)}'`);
  let target: Target;
  const other = world.player(targetId);
  if (other) {
    const refusal = pvpRefusal(world, player, other);
    if (refusal) throw refusal;
    if (combat.dying.has(other)) throw new GameError('NOT_FOUND', 'That player is dead');
    target = { kind: 'player', player: other };
  } else {
    const npc = combat.fighters().get(targetId);
    if (!npc) throw new GameError('NOT_FOUND', 'There is no NPC or player to attack with that id');
    if (npc.dead) throw new GameError('NOT_FOUND', 'That NPC is dead');
    target = { kind: 'npc', npc };
  }
  const at = targetTile(target);
  if (chebyshev(player, at) > 64) throw new GameError('TOO_FAR', 'That target is too far away');
  if (style !== undefined) combat.styles.set(player, style);
  const activity = startActivity(player, { kind: 'attack', targetId, nextTick: world.currentTick() + 1, data: { chaseX: at.x, chaseZ: at.z } });
  const range = attackRange(weaponOf(world, player), combat.styleOf(player));
  reachOrApproach(world, player, activity, tileRect(at.x, at.z), range);
  player.client.send('action:started', { action: 'attack', targetId, style: combat.styleOf(player) });
}

/** The activity's target if it can still be fought, else the reason to stop. */
function currentTarget(world: WorldApi, player: OnlinePlayer, targetId: string): Target | { stop: string; message?: string } {
  const combat = combatOf(world);
  const npc = combat.fighters().get(targetId);
  if (npc) return npc.dead ? { stop: 'TARGET_GONE' } : { kind: 'npc', npc };
  const other = world.player(targetId);
  if (!other || combat.dying.has(other)) return { stop: 'TARGET_GONE' };
  const refusal = pvpRefusal(world, player, other);
  if (refusal) return { stop: refusal.code, message: refusal.message };
  return { kind: 'player', player: other };
}

export function attackStep(world: WorldApi, player: OnlinePlayer, activity: Activity, tick: number): void {
  const combat = combatOf(world);
  const target = currentTarget(world, player, activity.targetId!);
  if ('stop' in target) return stopActivity(world, player, target.stop, target.message);
  if (walkedAway(player, activity)) return stopActivity(world, player, 'MOVED');
  const style = combat.styleOf(player);
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
    ? { kind: 'npc' as const, combat: target.npc.combat, hitpoints: Math.ceil(target.npc.entity.state.health / HITPOINTS_SCALE) }
    : { kind: 'player' as const, fighter: fighterOf(world, target.player), hitpoints: Math.ceil(target.player.state.health / HITPOINTS_SCALE) };
  const data = { items: world.data.itemsById, ammunition: world.data.ammunitionByItemId };
  if (combatTypeOf(weapon) !== 'ranged') {
    const outcome = playerAttack(fighterOf(world, player), defender(), data, random);
    if (!outcome.ok) return stopActivity(world, player, outcome.code, outcome.message);
    return landHit(world, player, target, outcome.value, tick);
  }
  // A ranged shot uses one piece of ammunition, hit or miss: the arrow leaves through an item transaction first.
  activity.busy = true;
  void moveItems(world, [player.id], async (_tx, loaded) => {
    const containers = loaded.get(player.id)!;
    const outcome = playerAttack({ ...fighterOf(world, player), equipment: containers.equipment }, defender(), data, random);
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
  if (target.kind === 'player') {
    hurtPlayer(world, target.player, player.id, outcome.damage, tick);
    for (const [skill, xp] of Object.entries(outcome.xp) as Array<[Skill, number]>) grantXp(world, player, skill, xp);
    return;
  }
  const { npc } = target;
  const state = npc.entity.state;
  const damage = Math.min(outcome.damage * HITPOINTS_SCALE, state.health);
  state.health -= damage;
  state.action = 'fighting';
  npc.lastHitTick = tick;
  world.markChanged(npc.entity);
  world.sendNear(npc.entity.x, npc.entity.z, world.interestRadius, 'combat:hit', {
    attackerId: player.id, targetId: npc.entity.id, damage, targetHealth: state.health, maxHealth: state.maxHealth,
  });
  for (const [skill, xp] of Object.entries(outcome.xp) as Array<[Skill, number]>) grantXp(world, player, skill, xp);
  if (state.health <= 0) return void npcDies(world, npc, player, tick);
  if (shouldRetaliate(npc.targetId, player.id) && npc.targetId === null) {
    npc.targetId = player.id;
    npc.nextAttackTick = Math.max(npc.nextAttackTick, tick + 1);
  }
}

/**
 * Damage (level scale) dealt to a player by an NPC or another player: health, `combat:hit` to everyone in range,
 * death at 0; otherwise an idle player fights back (auto-retaliate).
 */
function hurtPlayer(world: WorldApi, victim: OnlinePlayer, attackerId: string, levelDamage: number, tick: number): void {
  const damage = Math.min(levelDamage * HITPOINTS_SCALE, victim.state.health);
  victim.state.health -= damage;
  victim.inCombatUntilTick = tick + IN_COMBAT_TICKS;
  skillsOf(victim).healthDirty = true;
  world.markChanged(victim);
  world.sendNear(victim.x, victim.z, world.interestRadius, 'combat:hit', {
    attackerId, targetId: victim.id, damage, targetHealth: victim.state.health, maxHealth: victim.state.maxHealth,
  });
  if (victim.state.health <= 0) return playerDies(world, victim);
  if (!activityOf(victim) && victim.path.length === 0 && !victim.lock) {
    startActivity(victim, { kind: 'attack', targetId: attackerId, nextTick: tick + 1, data: {} });
  }
}

// ── NPC death and respawn ───────────────────────────────────────────────────────────────────────────

async function npcDies(world: WorldApi, npc: NpcFighter, killer: OnlinePlayer, tick: number): Promise<void> {
  const economy = economyOf(world);
  const { entity } = npc;
  const definition = world.data.npcsById.get(entity.state.npcId)!;
  npc.targetId = null;
  npc.respawnAtTick = npc.temporary ? null : tick + npc.combat.respawnTicks;
  entity.state.action = 'dead';
  world.removeEntity(entity);
  if (npc.temporary) combatOf(world).npcs.delete(entity.id);
  for (const player of world.players()) {
    const activity = activityOf(player);
    if (activity?.kind === 'attack' && activity.targetId === entity.id) stopActivity(world, player, 'TARGET_DIED');
  }
  const loot = rollDrops(definition.drops, random);
  const piles = placeLoot(loot, world.data.itemsById, {
    x: entity.x, z: entity.z, ownerId: killer.id, now: Date.now(), nextId: () => randomUUID(), timings: economy.groundTimings(),
  });
  try {
    // The drop (an item source) and the kill count commit together.
    await world.context().db.em.fork().transactional(async (tx) => {
      await insertGroundItems(tx, piles);
      await tx.execute(
        `insert into npc_kills (character_id, npc_id, kill_count, last_kill_at) values (?, ?, 1, ?)
         on conflict (character_id, npc_id) do update set kill_count = npc_kills.kill_count + 1, last_kill_at = excluded.last_kill_at`,
        [killer.id, definition.id, new Date().toISOString()],
      );
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
  state.x = npc.spawnX;
  state.z = npc.spawnZ;
  state.action = 'idle';
  world.addEntity(npc.entity);
}

// ── NPC behaviour ───────────────────────────────────────────────────────────────────────────────────

function stepToward(world: WorldApi, npc: NpcFighter, x: number, z: number): void {
  const e = npc.entity;
  const nx = e.x + Math.sign(x - e.x);
  const nz = e.z + Math.sign(z - e.z);
  const options = [{ x: nx, z: nz }, { x: nx, z: e.z }, { x: e.x, z: nz }];
  for (const tile of options) {
    if ((tile.x === e.x && tile.z === e.z) || world.blocked.isBlocked(tile.x, tile.z)) continue;
    if (Math.max(Math.abs(tile.x - npc.spawnX), Math.abs(tile.z - npc.spawnZ)) > LEASH_TILES) continue;
    return moveNpc(world, e, tile);
  }
}

function npcStep(world: WorldApi, npc: NpcFighter, tick: number): void {
  const combat = combatOf(world);
  const target = npc.targetId ? world.player(npc.targetId) : undefined;
  if (npc.targetId && (!target || combat.dying.has(target) || chebyshev(target, { x: npc.spawnX, z: npc.spawnZ }) > LEASH_TILES + 2)) {
    npc.targetId = null;
    npc.entity.state.action = 'idle';
    world.markChanged(npc.entity);
  }
  if (!target || npc.targetId === null) {
    // Back within the wander area (wander.ts moves it about inside).
    if (chebyshev(npc.entity, { x: npc.spawnX, z: npc.spawnZ }) > npc.wanderRadius) stepToward(world, npc, npc.spawnX, npc.spawnZ);
    return;
  }
  if (chebyshev(npc.entity, target) > 1) return stepToward(world, npc, target.x, target.z);
  if (tick < npc.nextAttackTick) return;
  npc.nextAttackTick = tick + npc.combat.attackSpeed;
  const hit = npcAttack(npc.combat, { fighter: fighterOf(world, target), hitpoints: Math.ceil(target.state.health / HITPOINTS_SCALE) }, world.data.itemsById, random);
  hurtPlayer(world, target, npc.entity.id, hit.damage, tick);
}

function playerDies(world: WorldApi, player: OnlinePlayer): void {
  const combat = combatOf(world);
  if (combat.dying.has(player)) return;
  combat.dying.add(player);
  stopActivity(world, player, 'DIED');
  for (const npc of combat.fighters().values()) if (npc.targetId === player.id) npc.targetId = null;
  for (const other of world.players()) {
    const activity = activityOf(other);
    if (activity?.kind === 'attack' && activity.targetId === player.id) stopActivity(world, other, 'TARGET_DIED');
  }
  void killPlayer(world, player)
    .then(() => {
      skillsOf(player).healthDirty = true;
    })
    .catch((error: unknown) => world.context().logger.error({ err: error, characterId: player.id }, 'player death failed'))
    .finally(() => combat.dying.delete(player));
}

function aggression(world: WorldApi, npc: NpcFighter, tick: number): void {
  const combat = combatOf(world);
  let chosen: OnlinePlayer | undefined;
  world.grid.forEachNear(npc.entity.x, npc.entity.z, 4, (entity) => {
    if (chosen || entity.kind !== 'player') return;
    const player = entity as OnlinePlayer;
    if (combat.dying.has(player) || player.state.action === 'disconnected') return;
    if (shouldAggress({
      npc: npc.combat, distance: chebyshev(player, npc.entity), playerCombatLevel: player.state.combatLevel,
      playerInSafeArea: inArea(world, player.x, player.z, 'safe'), playerInCombat: player.inCombatUntilTick > tick, npcInCombat: false,
    })) chosen = player;
  });
  if (chosen) {
    npc.targetId = chosen.id;
    npc.nextAttackTick = Math.max(npc.nextAttackTick, tick + 1);
  }
}

export function combatTick(world: WorldApi, tick: number): void {
  const combat = combatOf(world);
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
      combat.regen.delete(player);
      continue;
    }
    // One level-scale hitpoint per DEFAULT_REGEN_TICKS: one world health point per tenth of that.
    const next = regenerate({ hitpoints: health, regenTicks: combat.regen.get(player) ?? 0 }, max, 1, DEFAULT_REGEN_TICKS / HITPOINTS_SCALE);
    combat.regen.set(player, next.regenTicks);
    if (next.hitpoints !== health) {
      player.state.health = next.hitpoints;
      skillsOf(player).healthDirty = true;
      world.markChanged(player);
    }
  }
}
