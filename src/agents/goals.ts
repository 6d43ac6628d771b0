/**
 * Goal shapes of the agent goal-control API (docs/api.md): what a client may ask for (GoalSpec), what a running
 * goal reports (Goal) and the menu of goals the executor can pursue now (AvailableGoal; built by goal-menu.ts).
 * Pure: no I/O.
 */
import { z } from 'zod';
import { MAX_LEVEL, SKILLS, xpForLevel } from '../game/skills.ts';
import type { GameData } from '../manifests/game-data.ts';
import { GATHERING_SKILLS } from '../manifests/schemas/skilling.ts';

const ManifestId = z.string().min(1).max(64).regex(/^[a-z0-9_-]+$/, 'must be a manifest id (a-z, 0-9, _ or -)');

export const TravelGoalSpec = z.object({
  type: z.literal('travel'),
  /** An area of GET /api/v1/world/areas. */
  areaId: ManifestId,
}).strict().meta({ description: 'Walk to an area (completes when standing inside its bounds).' });

export const GatherGoalSpec = z.object({
  type: z.literal('gather'),
  skill: z.enum(GATHERING_SKILLS),
  /** The item to collect, e.g. `logs`. */
  itemId: ManifestId,
  quantity: z.number().int().min(1).max(1000),
}).strict().meta({ description: 'Gather N of an item, e.g. chop 5 logs: {"type":"gather","skill":"woodcutting","itemId":"logs","quantity":5}.' });

export const TrainSkillGoalSpec = z.object({
  type: z.literal('train_skill'),
  /** Any skill is accepted here; the executor trains the gathering skills (others: 409 SKILL_NOT_TRAINABLE). */
  skill: z.enum(SKILLS),
  targetLevel: z.number().int().min(2).max(MAX_LEVEL),
}).strict().meta({
  description: 'Train a gathering skill (woodcutting, mining, fishing) until it reaches a level: gathers at the best node for the level and the tool carried, banks a full inventory (keeping the tools and bait) and comes back, e.g. {"type":"train_skill","skill":"woodcutting","targetLevel":15}.',
});

export const KillGoalSpec = z.object({
  type: z.literal('kill'),
  /** The NPC type (an id of npcs.json, e.g. `chicken`): the nearest live one of that type is fought each time. */
  npcId: ManifestId,
  count: z.number().int().min(1).max(1000),
}).strict().meta({ description: 'Kill N NPCs of a type, counted from the character\'s recorded NPC kills, e.g. {"type":"kill","npcId":"chicken","count":3}.' });

export const BankInventoryGoalSpec = z.object({
  type: z.literal('bank_inventory'),
}).strict().meta({ description: 'Walk to the nearest bank booth or banker and deposit the whole inventory (bank:depositAll).' });

export const GoalSpec = z.discriminatedUnion('type', [
  TravelGoalSpec, GatherGoalSpec, TrainSkillGoalSpec, KillGoalSpec, BankInventoryGoalSpec,
]);
export type GoalSpec = z.infer<typeof GoalSpec>;
export const GOAL_TYPES = ['travel', 'gather', 'train_skill', 'kill', 'bank_inventory'] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

/** POST /api/agents/:agentId/goal: an id from availableGoals, or a goal described by type and target. */
export const SetGoalBody = z.union([
  z.object({ goalId: z.string().min(1).max(120) }).strict(),
  GoalSpec,
]);
export type SetGoalBody = z.infer<typeof SetGoalBody>;

export const GOAL_STATUSES = ['active', 'waiting', 'completed', 'failed', 'stopped'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export const GoalProgress = z.object({
  current: z.number(),
  target: z.number(),
  /** What current and target count: tiles (distance walked), items, kills, xp (experience), steps. */
  unit: z.string(),
  /** 0–100. */
  percent: z.number().min(0).max(100),
  /** train_skill only: the skill's level now. */
  level: z.number().int().optional(),
  /** train_skill only: the level the goal trains to. */
  targetLevel: z.number().int().optional(),
});
export type GoalProgress = z.infer<typeof GoalProgress>;

export const Goal = z.object({
  /** This goal instance. */
  id: z.string(),
  type: z.enum(GOAL_TYPES),
  spec: GoalSpec,
  description: z.string(),
  /** Who chose it: the owner (`user`), the executor's autonomous selection (`auto`) or the AI-agent service. */
  source: z.enum(['user', 'auto', 'service']),
  /** `waiting`: accepted but not running (character offline, or goals paused). */
  status: z.enum(GOAL_STATUSES),
  progress: GoalProgress,
  /** Why it waits, failed or stopped. */
  detail: z.string().nullable(),
  startedAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().nullable(),
}).meta({ id: 'Goal' });
export type Goal = z.infer<typeof Goal>;

export const AvailableGoal = z.object({
  /** Pass as `goalId` to POST /api/agents/:agentId/goal. */
  id: z.string(),
  type: z.enum(GOAL_TYPES),
  description: z.string(),
  spec: GoalSpec,
  /** False when the world or the character lacks what the goal needs (the reason says what). */
  available: z.boolean(),
  unavailableReason: z.string().nullable(),
  /** The 409 code POST …/goal answers for this goal while it is unavailable. */
  unavailableCode: z.string().nullable(),
}).meta({ id: 'AvailableGoal' });
export type AvailableGoal = z.infer<typeof AvailableGoal>;

/**
 * The progress a goal reports before the executor's first step: counted from 0 toward the target the goal was set
 * with (items, kills, the target level's experience). Travel and banking count tiles toward a destination the
 * first step picks, so their target is 1 until then.
 */
export function initialProgress(spec: GoalSpec): GoalProgress {
  switch (spec.type) {
    case 'gather': return { current: 0, target: spec.quantity, unit: 'items', percent: 0 };
    case 'kill': return { current: 0, target: spec.count, unit: 'kills', percent: 0 };
    case 'train_skill': return { current: 0, target: xpForLevel(spec.targetLevel), unit: 'xp', percent: 0, targetLevel: spec.targetLevel };
    case 'travel':
    case 'bank_inventory': return { current: 0, target: 1, unit: 'tiles', percent: 0 };
  }
}

export function describeGoal(spec: GoalSpec, data: GameData | null): string {
  switch (spec.type) {
    case 'travel': return `Travel to ${data?.areasById.get(spec.areaId)?.name ?? spec.areaId}`;
    case 'gather': return `Gather ${spec.quantity} × ${data?.itemsById.get(spec.itemId)?.name ?? spec.itemId} (${spec.skill})`;
    case 'train_skill': return `Train ${spec.skill} to level ${spec.targetLevel}`;
    case 'kill': return `Kill ${spec.count} × ${data?.npcsById.get(spec.npcId)?.name ?? spec.npcId}`;
    case 'bank_inventory': return 'Bank the inventory';
  }
}

export function goalIdOf(spec: GoalSpec): string {
  switch (spec.type) {
    case 'travel': return `travel:${spec.areaId}`;
    case 'gather': return `gather:${spec.skill}:${spec.itemId}:${spec.quantity}`;
    case 'train_skill': return `train_skill:${spec.skill}:${spec.targetLevel}`;
    case 'kill': return `kill:${spec.npcId}:${spec.count}`;
    case 'bank_inventory': return 'bank_inventory';
  }
}

/** Which referenced manifest id is unknown (404 material), or undefined when the spec names only known things. */
export function unknownReference(spec: GoalSpec, data: GameData | null): { code: string; message: string } | undefined {
  if (!data) return undefined;
  if (spec.type === 'travel' && !data.areasById.has(spec.areaId)) return { code: 'AREA_NOT_FOUND', message: `no area "${spec.areaId}"` };
  if (spec.type === 'gather') {
    const produces = data.gathering[spec.skill].some((action) => action.outputs.some((o) => o.itemId === spec.itemId));
    if (!produces) return { code: 'ITEM_NOT_GATHERABLE', message: `${spec.skill} yields no "${spec.itemId}"` };
  }
  if (spec.type === 'kill' && !data.npcsById.has(spec.npcId)) return { code: 'NPC_NOT_FOUND', message: `no NPC "${spec.npcId}"` };
  return undefined;
}
