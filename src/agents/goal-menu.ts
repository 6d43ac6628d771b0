/**
 * Which goals a character can pursue now, and why not: the refusal POST …/goal answers (409 with a code), the
 * availableGoals menu with targets that suit the character (its levels, tools and combat level), and the goal the
 * executor picks by itself when it is not paused. Pure: the character is described by `CharacterFacts`.
 */
import { gatherableActions } from '../game/gathering.ts';
import type { Equipment } from '../game/equipment.ts';
import type { Inventory } from '../game/inventory.ts';
import { MAX_LEVEL, type Levels, type Skill } from '../game/skills.ts';
import type { GameData } from '../manifests/game-data.ts';
import { GATHERING_SKILLS } from '../manifests/schemas/skilling.ts';
import { describeGoal, goalIdOf, type AvailableGoal, type Goal, type GoalSpec } from './goals.ts';
import { bankSites, type Tile } from './planning.ts';
import { distanceToRect, insideRect } from '../game/geometry.ts';

export type GatheringSkill = (typeof GATHERING_SKILLS)[number];

/** What the menu and the refusals need to know about a character. */
export interface CharacterFacts {
  levels: Levels;
  inventory: Inventory;
  equipment: Equipment;
  combatLevel: number;
}

/** Every code `goalRefusal` answers (POST …/goal: 409). */
export const GOAL_REFUSAL_CODES = [
  'SKILL_NOT_TRAINABLE', 'TARGET_LEVEL_REACHED', 'NO_TOOL', 'LEVEL_TOO_LOW', 'MISSING_ITEMS', 'INVENTORY_FULL',
  'NPC_NOT_ATTACKABLE', 'NOTHING_TO_BANK', 'GOAL_UNAVAILABLE',
] as const;

export interface GoalRefusal {
  code: string;
  message: string;
}

export interface GatheringOption {
  resourceId: string;
  /** Level of the best action the character can do there (higher is better experience). */
  level: number;
}

export interface GatheringPlan {
  /** Resource types the character can gather from now, best first. */
  ready: GatheringOption[];
  /** Resource types refused only because the inventory is full (a bank trip frees it), best first. */
  full: GatheringOption[];
  /** Why nothing can be gathered: the refusal closest to success (bait missing before tool before level). */
  refusal: GoalRefusal | undefined;
}

/** Gathering refusals, closest to success first (only bait missing; the tool; the level). */
const REFUSAL_CLOSENESS: readonly string[] = ['MISSING_ITEMS', 'NO_TOOL', 'LEVEL_TOO_LOW'];

export function isGatheringSkill(skill: string): skill is GatheringSkill {
  return (GATHERING_SKILLS as readonly string[]).includes(skill);
}

/**
 * Where a character can gather in a skill, by the gathering rules (level, tool carried or worn, bait, room for the
 * output): every resource type of the skill (restricted to actions yielding `itemId` when given).
 */
export function gatheringPlan(data: GameData, skill: GatheringSkill, facts: CharacterFacts, itemId?: string): GatheringPlan {
  const ready: GatheringOption[] = [];
  const full: GatheringOption[] = [];
  let refusal: (GoalRefusal & { rank: number; lowest: number }) | undefined;
  const level = facts.levels[skill];
  for (const resource of data.resourcesById.values()) {
    if (resource.skill !== skill) continue;
    const actions = data.gathering[skill].filter((a) => a.resourceId === resource.id && (itemId === undefined || a.outputs.some((o) => o.itemId === itemId)));
    if (actions.length === 0) continue;
    const checked = gatherableActions({
      node: { resourceId: resource.id, depletedUntil: null }, resource, actions, level,
      inventory: facts.inventory, equipment: facts.equipment, items: data.itemsById, tools: data.toolsByItemId, now: 0,
    });
    if (checked.ok) {
      ready.push({ resourceId: resource.id, level: checked.value[0]!.action.level });
    } else if (checked.code === 'INVENTORY_FULL') {
      full.push({ resourceId: resource.id, level: Math.max(...actions.filter((a) => a.level <= level).map((a) => a.level)) });
    } else {
      const lowest = Math.min(...actions.map((a) => a.level));
      const known = REFUSAL_CLOSENESS.indexOf(checked.code);
      const rank = known < 0 ? REFUSAL_CLOSENESS.length : known;
      if (!refusal || rank < refusal.rank || (rank === refusal.rank && lowest < refusal.lowest)) {
        refusal = { code: checked.code, message: checked.message, rank, lowest };
      }
    }
  }
  const best = (a: GatheringOption, b: GatheringOption) => b.level - a.level;
  return {
    ready: ready.sort(best),
    full: full.sort(best),
    refusal: refusal ? { code: refusal.code, message: refusal.message } : { code: 'GOAL_UNAVAILABLE', message: `nothing can be gathered with ${skill} in this world` },
  };
}

/** Item ids a training trip keeps when it banks: the skill's tools and what its actions consume (bait). */
export function keptForTraining(data: GameData, skill: GatheringSkill): Set<string> {
  const actions = data.gathering[skill];
  const toolTypes = new Set(actions.map((a) => a.tool));
  const kept = new Set(actions.flatMap((a) => a.consumes.map((c) => c.itemId)));
  for (const tool of data.toolsByItemId.values()) if (toolTypes.has(tool.type)) kept.add(tool.itemId);
  return kept;
}

/** Inventory slots a bank accepts (items carrying metadata stay), optionally skipping kept item ids. */
export function bankableSlots(inventory: Inventory, keep: ReadonlySet<string> = new Set()): number[] {
  const slots: number[] = [];
  inventory.forEach((slot, index) => {
    if (slot && slot.metadata === undefined && !keep.has(slot.itemId)) slots.push(index);
  });
  return slots;
}

function hasSpawn(data: GameData, npcId: string): boolean {
  return data.spawns.npcs.some((spawn) => spawn.npcId === npcId);
}

/** Why the character cannot pursue the goal now (POST …/goal answers 409 with this code), or undefined. */
export function goalRefusal(spec: GoalSpec, data: GameData | null, facts: CharacterFacts | undefined): GoalRefusal | undefined {
  if (!data) return undefined;
  switch (spec.type) {
    case 'travel':
      return undefined;
    case 'gather': {
      if (!facts) return undefined;
      const plan = gatheringPlan(data, spec.skill, facts, spec.itemId);
      if (plan.ready.length > 0) return undefined;
      return plan.full.length > 0 ? { code: 'INVENTORY_FULL', message: 'the inventory is full' } : plan.refusal;
    }
    case 'train_skill': {
      if (!isGatheringSkill(spec.skill)) {
        return { code: 'SKILL_NOT_TRAINABLE', message: `the executor trains ${GATHERING_SKILLS.join(', ')}; not ${spec.skill}` };
      }
      if (!facts) return undefined;
      const level = facts.levels[spec.skill];
      if (level >= spec.targetLevel) return { code: 'TARGET_LEVEL_REACHED', message: `${spec.skill} is already level ${level}` };
      const plan = gatheringPlan(data, spec.skill, facts);
      if (plan.ready.length > 0) return undefined;
      if (plan.full.length > 0) return bankSites(data).length > 0 ? undefined : { code: 'GOAL_UNAVAILABLE', message: 'the inventory is full and this world has no bank' };
      return plan.refusal;
    }
    case 'kill': {
      const npc = data.npcsById.get(spec.npcId);
      if (!npc?.combat) return { code: 'NPC_NOT_ATTACKABLE', message: `${npc?.name ?? spec.npcId} cannot be fought` };
      if (!hasSpawn(data, spec.npcId)) return { code: 'GOAL_UNAVAILABLE', message: `no ${npc.name} lives in this world` };
      return undefined;
    }
    case 'bank_inventory':
      if (bankSites(data).length === 0) return { code: 'GOAL_UNAVAILABLE', message: 'this world has no bank booth or banker' };
      if (facts && bankableSlots(facts.inventory).length === 0) return { code: 'NOTHING_TO_BANK', message: 'the inventory holds nothing the bank accepts' };
      return undefined;
  }
}

/** The NPC type to suggest fighting: the strongest one at or below the character's combat level, outside PvP areas. */
function suggestedPrey(data: GameData, combatLevel: number): string | undefined {
  const pvp = [...data.areasById.values()].filter((a) => a.pvp).map((a) => a.bounds);
  const candidates = [...data.npcsById.values()].filter((npc) => npc.combat && data.spawns.npcs.some(
    (s) => s.npcId === npc.id && !pvp.some((rect) => insideRect(rect, s.x, s.z)),
  ));
  candidates.sort((a, b) => a.combat!.level - b.combat!.level);
  const suited = candidates.filter((npc) => npc.combat!.level <= combatLevel);
  return (suited[suited.length - 1] ?? candidates[0])?.id;
}

/** The item a gather goal of the skill suggests: the best the character can gather, else the skill's first. */
function suggestedItem(data: GameData, skill: GatheringSkill, facts: CharacterFacts | undefined): string | undefined {
  const best = facts ? gatheringPlan(data, skill, facts).ready[0] : undefined;
  const actions = data.gathering[skill];
  const action = best
    ? actions.filter((a) => a.resourceId === best.resourceId && a.level === best.level)[0]
    : actions[0];
  return action?.outputs[0]?.itemId;
}

/**
 * The goal menu: travel to every area, gathering 5 of the best item per gathering skill, training each gathering
 * skill one level up, killing 3 of the strongest NPC type the character's combat level suits, banking the inventory.
 */
export function availableGoals(data: GameData | null, facts: CharacterFacts | undefined): AvailableGoal[] {
  const specs: GoalSpec[] = [];
  for (const area of data?.areasById.values() ?? []) specs.push({ type: 'travel', areaId: area.id });
  if (data) {
    for (const skill of GATHERING_SKILLS) {
      const itemId = suggestedItem(data, skill, facts);
      if (itemId) specs.push({ type: 'gather', skill, itemId, quantity: 5 });
    }
    for (const skill of GATHERING_SKILLS) {
      const level = facts?.levels[skill] ?? 1;
      if (level < MAX_LEVEL) specs.push({ type: 'train_skill', skill, targetLevel: level + 1 });
    }
    const prey = suggestedPrey(data, facts?.combatLevel ?? 3);
    if (prey) specs.push({ type: 'kill', npcId: prey, count: 3 });
    specs.push({ type: 'bank_inventory' });
  }
  return specs.map((spec) => {
    const refusal = goalRefusal(spec, data, facts);
    return {
      id: goalIdOf(spec),
      type: spec.type,
      description: describeGoal(spec, data),
      spec,
      available: refusal === undefined,
      unavailableReason: refusal?.message ?? null,
      unavailableCode: refusal?.code ?? null,
    };
  });
}

/**
 * The goal the executor picks by itself: bank a full inventory; else train the lowest trainable gathering skill;
 * else walk to the nearest non-PvP area the character is not in. Never a fight (the character could die), and not
 * a goal whose last run failed (it would fail again at once).
 */
export function automaticGoal(data: GameData, menu: readonly AvailableGoal[], facts: CharacterFacts, at: Tile, recentGoals: readonly Goal[]): GoalSpec | undefined {
  const lastFailed = new Set(recentGoals.filter((g) => g.status === 'failed').slice(0, 1).map((g) => goalIdOf(g.spec)));
  const usable = menu.filter((goal) => goal.available && !lastFailed.has(goal.id));
  const bank = usable.find((goal) => goal.spec.type === 'bank_inventory');
  if (bank && facts.inventory.every((slot) => slot !== null)) return bank.spec;
  const training = usable
    .filter((goal): goal is AvailableGoal & { spec: { type: 'train_skill'; skill: Skill } } => goal.spec.type === 'train_skill')
    .sort((a, b) => facts.levels[a.spec.skill] - facts.levels[b.spec.skill])[0];
  if (training) return training.spec;
  let best: { spec: GoalSpec; distance: number } | undefined;
  for (const goal of usable) {
    if (goal.spec.type !== 'travel') continue;
    const area = data.areasById.get(goal.spec.areaId);
    if (!area || area.pvp || insideRect(area.bounds, at.x, at.z)) continue;
    const distance = distanceToRect(at.x, at.z, area.bounds);
    if (!best || distance < best.distance) best = { spec: goal.spec, distance };
  }
  return best?.spec;
}
