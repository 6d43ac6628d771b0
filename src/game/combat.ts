/**
 * Combat formulas (classic). Hitpoints are on the level scale: a player's maximum is their constitution level,
 * an NPC's is its `hitpoints`, and damage, food and max hits use the same unit.
 *
 *   effective level = floor(level × prayer multiplier) + style boost + 8
 *   attack roll     = effective attack (or ranged) × (attack bonus + 64)
 *   defence roll    = effective defense × (defence bonus against that attack type + 64)
 *   hit chance      = A > D ? 1 − (D + 2) / (2 (A + 1)) : A / (2 (D + 1))
 *   max hit         = floor(0.5 + effective strength (or ranged) × (strength bonus + 64) / 640)
 *
 * NPCs have no equipment: their rolls use (level + 9) × 64 and their max hit comes from npcs.json.
 * Weapons whose style is magic fight in melee (there are no spells in the game data yet).
 */
import type { EquipmentBonuses, Item } from '../manifests/schemas/items.ts';
import type { NpcCombat } from '../manifests/schemas/npcs.ts';
import type { Ammunition } from '../manifests/schemas/skilling.ts';
import { totalBonuses, type Equipment } from './equipment.ts';
import type { ItemDefinitions } from './items.ts';
import { NO_PRAYER_BOOSTS, type PrayerBoosts } from './prayer.ts';
import { ok, refuse, type Result } from './result.ts';
import type { Levels, Skill } from './skills.ts';

export type CombatType = 'melee' | 'ranged';
export type MeleeAttackType = 'stab' | 'slash' | 'crush';
/** What a defender defends against. */
export type AttackType = MeleeAttackType | 'ranged' | 'magic';

export const MELEE_STYLES = ['accurate', 'aggressive', 'defensive', 'controlled'] as const;
export const RANGED_STYLES = ['accurate', 'rapid', 'longrange'] as const;
export type MeleeStyle = (typeof MELEE_STYLES)[number];
export type RangedStyle = (typeof RANGED_STYLES)[number];
export type AttackStyle = MeleeStyle | RangedStyle;

/**
 * What an attack style does: invisible level boosts, XP per point of damage, speed and range changes. Combat's XP
 * is counted in thirds of a tenth of a point (experience.ts): 4 points a damage is 120, 4/3 is 40.
 */
export interface StyleEffect {
  readonly boosts: Readonly<Partial<Record<'attack' | 'strength' | 'defense' | 'ranged', number>>>;
  /** Thirds of a tenth of a point per point of damage. */
  readonly xpThirdsPerDamage: Readonly<Partial<Record<Skill, number>>>;
  readonly speedChange: number;
  readonly rangeChange: number;
}

/** Constitution XP per point of damage, whatever the style: 4/3 of a point, in thirds of a tenth. */
export const CONSTITUTION_XP_THIRDS_PER_DAMAGE = 40;

const STYLE_EFFECTS: Readonly<Record<CombatType, Readonly<Record<string, StyleEffect>>>> = {
  melee: {
    accurate: { boosts: { attack: 3 }, xpThirdsPerDamage: { attack: 120 }, speedChange: 0, rangeChange: 0 },
    aggressive: { boosts: { strength: 3 }, xpThirdsPerDamage: { strength: 120 }, speedChange: 0, rangeChange: 0 },
    defensive: { boosts: { defense: 3 }, xpThirdsPerDamage: { defense: 120 }, speedChange: 0, rangeChange: 0 },
    controlled: {
      boosts: { attack: 1, strength: 1, defense: 1 },
      xpThirdsPerDamage: { attack: 40, strength: 40, defense: 40 },
      speedChange: 0,
      rangeChange: 0,
    },
  },
  ranged: {
    accurate: { boosts: { ranged: 3 }, xpThirdsPerDamage: { ranged: 120 }, speedChange: 0, rangeChange: 0 },
    rapid: { boosts: {}, xpThirdsPerDamage: { ranged: 120 }, speedChange: -1, rangeChange: 0 },
    longrange: { boosts: { defense: 3 }, xpThirdsPerDamage: { ranged: 60, defense: 60 }, speedChange: 0, rangeChange: 2 },
  },
};

export const UNARMED_ATTACK_SPEED = 4;
export const MELEE_RANGE = 1;
export const RANGED_RANGE = 7;
/** Protection prayers block all of an NPC's damage and this share of a player's. */
export const PVP_PROTECTION = 0.4;

export type CombatCode = 'INVALID_STYLE' | 'NO_AMMO' | 'WRONG_AMMO' | 'AMMO_LEVEL_TOO_LOW' | 'NOT_PVP_AREA' | 'SELF';

export function combatTypeOf(weapon: Item | undefined): CombatType {
  return weapon?.equipment?.style === 'ranged' ? 'ranged' : 'melee';
}

export function styleEffect(type: CombatType, style: AttackStyle): Result<StyleEffect, CombatCode> {
  const effect = Object.hasOwn(STYLE_EFFECTS[type], style) ? STYLE_EFFECTS[type][style] : undefined;
  if (!effect) return refuse('INVALID_STYLE', `${String(style)} is not a ${type} attack style`);
  return ok(effect);
}

export function effectiveLevel(level: number, prayerMultiplier: number, styleBoost: number): number {
  return Math.floor(level * prayerMultiplier + 1e-9) + styleBoost + 8;
}

export function hitChance(attackRoll: number, defenceRoll: number): number {
  return attackRoll > defenceRoll ? 1 - (defenceRoll + 2) / (2 * (attackRoll + 1)) : attackRoll / (2 * (defenceRoll + 1));
}

export function maxHit(effectiveStrength: number, strengthBonus: number): number {
  return Math.floor(0.5 + (effectiveStrength * (strengthBonus + 64)) / 640);
}

/** A hit lands with `chance`; a landed hit deals 0 to maxHit, uniformly. Uses two draws of `rng` when it lands. */
export function rollDamage(chance: number, max: number, rng: () => number): { hit: boolean; damage: number } {
  if (!(rng() < chance)) return { hit: false, damage: 0 };
  return { hit: true, damage: Math.min(max, Math.floor(rng() * (max + 1))) };
}

/** The melee attack type a weapon is best at (its highest attack bonus; ties prefer stab, then slash). */
export function meleeAttackType(bonuses: EquipmentBonuses): MeleeAttackType {
  const candidates: [MeleeAttackType, number][] = [['stab', bonuses.attackStab], ['slash', bonuses.attackSlash], ['crush', bonuses.attackCrush]];
  return candidates.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

export function defenceBonusAgainst(bonuses: EquipmentBonuses, type: AttackType): number {
  switch (type) {
    case 'stab': return bonuses.defenseStab;
    case 'slash': return bonuses.defenseSlash;
    case 'crush': return bonuses.defenseCrush;
    case 'ranged': return bonuses.defenseRanged;
    case 'magic': return bonuses.defenseMagic;
  }
}

/** XP for dealing `damage` (whole hitpoints), in thirds of a tenth: the style's skills plus constitution. */
export function xpForDamage(effect: StyleEffect, damage: number): Partial<Record<Skill, number>> {
  const xp: Partial<Record<Skill, number>> = {};
  if (!(damage > 0) || !Number.isSafeInteger(damage)) return xp;
  for (const [skill, perDamage] of Object.entries(effect.xpThirdsPerDamage) as [Skill, number][]) xp[skill] = perDamage * damage;
  xp.constitution = CONSTITUTION_XP_THIRDS_PER_DAMAGE * damage;
  return xp;
}

/** Ticks between a player's attacks: the weapon's speed (4 unarmed), one faster on rapid. */
export function attackInterval(weapon: Item | undefined, style: AttackStyle): number {
  const base = weapon?.equipment?.attackSpeed ?? UNARMED_ATTACK_SPEED;
  return Math.max(1, base + (combatTypeOf(weapon) === 'ranged' && style === 'rapid' ? -1 : 0));
}

/** How many tiles away a player can attack from (Chebyshev distance). */
export function attackRange(weapon: Item | undefined, style: AttackStyle): number {
  if (combatTypeOf(weapon) === 'melee') return MELEE_RANGE;
  return RANGED_RANGE + (style === 'longrange' ? 2 : 0);
}

// ── Ammunition ─────────────────────────────────────────────────────────────────────────────────────

/** The worn ammunition, if it fits the worn ranged weapon and the player's ranged level. */
export function checkAmmunition(
  equipment: Equipment,
  ammunition: ReadonlyMap<string, Ammunition>,
  rangedLevel: number,
): Result<Ammunition, CombatCode> {
  const worn = equipment.ammunition;
  if (!worn || worn.quantity < 1) return refuse('NO_AMMO', 'you have no ammunition left');
  const ammo = ammunition.get(worn.itemId);
  const weaponId = equipment.weapon?.itemId;
  if (!ammo || weaponId === undefined || !ammo.weaponIds.includes(weaponId)) {
    return refuse('WRONG_AMMO', `${worn.itemId} cannot be fired from ${weaponId ?? 'your hands'}`);
  }
  if (rangedLevel < ammo.rangedLevel) return refuse('AMMO_LEVEL_TOO_LOW', `${worn.itemId} needs ranged ${ammo.rangedLevel}`);
  return ok(ammo);
}

/** One shot fired: one piece of ammunition leaves the game (a sink). */
export function consumeAmmunition(equipment: Equipment): Equipment {
  const worn = equipment.ammunition;
  if (!worn) return equipment;
  return { ...equipment, ammunition: worn.quantity > 1 ? { ...worn, quantity: worn.quantity - 1 } : null };
}

// ── Attacks ────────────────────────────────────────────────────────────────────────────────────────

export interface PlayerFighter {
  readonly levels: Levels;
  readonly equipment: Equipment;
  readonly style: AttackStyle;
  readonly prayer?: PrayerBoosts;
}

export type Defender =
  | { readonly kind: 'npc'; readonly combat: NpcCombat; readonly hitpoints: number }
  | { readonly kind: 'player'; readonly fighter: PlayerFighter; readonly hitpoints: number };

export interface AttackOutcome {
  readonly hit: boolean;
  /** Never more than the defender's hitpoints. */
  readonly damage: number;
  readonly maxHit: number;
  readonly hitChance: number;
  readonly attackType: AttackType;
  /** Experience gained, in thirds of a tenth of a point (xpForDamage). */
  readonly xpThirds: Partial<Record<Skill, number>>;
  /** The attacker's equipment afterwards (one arrow fewer after a ranged attack). */
  readonly equipment: Equipment;
}

/** Resolves one attack by a player. Ranged attacks need fitting ammunition and use one piece, hit or miss. */
export function playerAttack(
  attacker: PlayerFighter,
  defender: Defender,
  data: { items: ItemDefinitions; ammunition: ReadonlyMap<string, Ammunition> },
  rng: () => number,
): Result<AttackOutcome, CombatCode> {
  const weapon = attacker.equipment.weapon ? data.items.get(attacker.equipment.weapon.itemId) : undefined;
  const type = combatTypeOf(weapon);
  const effect = styleEffect(type, attacker.style);
  if (!effect.ok) return effect;
  const prayer = attacker.prayer ?? NO_PRAYER_BOOSTS;
  const boosts = effect.value.boosts;

  let attackRoll: number;
  let max: number;
  let attackType: AttackType;
  let equipment = attacker.equipment;
  if (type === 'ranged') {
    const ammo = checkAmmunition(attacker.equipment, data.ammunition, attacker.levels.ranged);
    if (!ammo.ok) return ammo;
    // ammunition.json is the authority on arrow strength; the arrow item's own bonuses are not added again.
    const bonuses = totalBonuses({ ...attacker.equipment, ammunition: null }, data.items);
    const effRanged = effectiveLevel(attacker.levels.ranged, prayer.ranged, boosts.ranged ?? 0);
    attackRoll = effRanged * (bonuses.attackRanged + 64);
    max = maxHit(effRanged, bonuses.rangedStrength + ammo.value.rangedStrength);
    attackType = 'ranged';
    equipment = consumeAmmunition(attacker.equipment);
  } else {
    const bonuses = totalBonuses(attacker.equipment, data.items);
    attackType = meleeAttackType(bonuses);
    const effAttack = effectiveLevel(attacker.levels.attack, prayer.attack, boosts.attack ?? 0);
    attackRoll = effAttack * (bonusForAttack(bonuses, attackType) + 64);
    max = maxHit(effectiveLevel(attacker.levels.strength, prayer.strength, boosts.strength ?? 0), bonuses.meleeStrength);
  }

  const defenceRoll = defender.kind === 'npc' ? npcDefenceRoll(defender.combat) : playerDefenceRoll(defender.fighter, attackType, data.items);
  const chance = hitChance(attackRoll, defenceRoll);
  const rolled = rollDamage(chance, max, rng);
  let damage = rolled.damage;
  if (defender.kind === 'player') damage = protectedDamage(damage, combatFamily(attackType), defender.fighter.prayer, true);
  damage = Math.min(damage, Math.max(0, defender.hitpoints));
  return ok({ hit: rolled.hit, damage, maxHit: max, hitChance: chance, attackType, xpThirds: xpForDamage(effect.value, damage), equipment });
}

/** Resolves one attack by an NPC on a player. NPCs fight in melee (crush) with their own stats. */
export function npcAttack(
  npc: NpcCombat,
  defender: { fighter: PlayerFighter; hitpoints: number },
  items: ItemDefinitions,
  rng: () => number,
): { hit: boolean; damage: number; hitChance: number } {
  const chance = hitChance(npcAttackRoll(npc), playerDefenceRoll(defender.fighter, 'crush', items));
  const rolled = rollDamage(chance, npc.maxHit, rng);
  const damage = Math.min(protectedDamage(rolled.damage, 'melee', defender.fighter.prayer, false), Math.max(0, defender.hitpoints));
  return { hit: rolled.hit, damage, hitChance: chance };
}

export function npcAttackRoll(npc: NpcCombat): number {
  return (npc.attack + 9) * 64;
}

export function npcDefenceRoll(npc: NpcCombat): number {
  return (npc.defense + 9) * 64;
}

export function playerDefenceRoll(fighter: PlayerFighter, against: AttackType, items: ItemDefinitions): number {
  const bonuses = totalBonuses(fighter.equipment, items);
  const weapon = fighter.equipment.weapon ? items.get(fighter.equipment.weapon.itemId) : undefined;
  const effect = styleEffect(combatTypeOf(weapon), fighter.style);
  const boost = effect.ok ? (effect.value.boosts.defense ?? 0) : 0;
  const effDefence = effectiveLevel(fighter.levels.defense, (fighter.prayer ?? NO_PRAYER_BOOSTS).defense, boost);
  return effDefence * (defenceBonusAgainst(bonuses, against) + 64);
}

/** Damage after a protection prayer: none from NPCs, PVP_PROTECTION less from players. */
export function protectedDamage(damage: number, family: 'melee' | 'ranged' | 'magic', prayer: PrayerBoosts | undefined, fromPlayer: boolean): number {
  if (!prayer?.protectFrom.includes(family)) return damage;
  return fromPlayer ? Math.floor(damage * (1 - PVP_PROTECTION)) : 0;
}

function combatFamily(type: AttackType): 'melee' | 'ranged' | 'magic' {
  return type === 'ranged' || type === 'magic' ? type : 'melee';
}

function bonusForAttack(bonuses: EquipmentBonuses, type: MeleeAttackType): number {
  return type === 'stab' ? bonuses.attackStab : type === 'slash' ? bonuses.attackSlash : bonuses.attackCrush;
}

// ── Decisions and upkeep ───────────────────────────────────────────────────────────────────────────

export const DEFAULT_AGGRESSION_RADIUS = 4;

/**
 * Whether an aggressive NPC starts a fight with a player: the NPC is aggressive and free, the player is within
 * `radius` tiles, not in a safe area, not already fighting (single combat), and not more than twice the NPC's
 * level (strong players are left alone).
 */
export function shouldAggress(input: {
  npc: NpcCombat;
  distance: number;
  playerCombatLevel: number;
  playerInSafeArea: boolean;
  playerInCombat: boolean;
  npcInCombat: boolean;
  radius?: number;
}): boolean {
  return (
    input.npc.aggressive &&
    !input.npcInCombat &&
    !input.playerInCombat &&
    !input.playerInSafeArea &&
    input.distance <= (input.radius ?? DEFAULT_AGGRESSION_RADIUS) &&
    input.playerCombatLevel <= input.npc.level * 2
  );
}

/** An attacked NPC fights back unless it is already fighting someone else. */
export function shouldRetaliate(npcTargetId: string | null, attackerId: string): boolean {
  return npcTargetId === null || npcTargetId === attackerId;
}

/** An attacked player fights back automatically when auto-retaliate is on and they are not busy fighting. */
export function playerRetaliates(autoRetaliate: boolean, currentTargetId: string | null): boolean {
  return autoRetaliate && currentTargetId === null;
}

/** Players may fight each other only when both stand in a player-versus-player area. */
export function canAttackPlayer(attackerId: string, targetId: string, attackerInPvp: boolean, targetInPvp: boolean): Result<true, CombatCode> {
  if (attackerId === targetId) return refuse('SELF', 'you cannot attack yourself');
  if (!attackerInPvp || !targetInPvp) return refuse('NOT_PVP_AREA', 'players can only fight in the wilderness');
  return ok(true);
}

/** A player's maximum hitpoints: the constitution level. */
export function maxHitpoints(levels: Pick<Levels, 'constitution'>): number {
  return levels.constitution;
}

export const DEFAULT_REGEN_TICKS = 100;

export interface Vitality {
  readonly hitpoints: number;
  /** Ticks gathered toward the next regenerated hitpoint. */
  readonly regenTicks: number;
}

/** Regenerates one hitpoint per `interval` ticks up to `max`; the count restarts when full. */
export function regenerate(state: Vitality, max: number, ticks: number = 1, interval: number = DEFAULT_REGEN_TICKS): Vitality {
  if (!(ticks > 0)) return state;
  if (state.hitpoints >= max) return state.regenTicks === 0 ? state : { ...state, regenTicks: 0 };
  const progress = state.regenTicks + ticks;
  const gained = Math.floor(progress / interval);
  const hitpoints = Math.min(max, state.hitpoints + gained);
  return { hitpoints, regenTicks: hitpoints >= max ? 0 : progress - gained * interval };
}
