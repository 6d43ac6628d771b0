/**
 * Gathering (woodcutting, mining, fishing) from gathering/*.json, resources.json and tools.json. The room calls
 * `gatherTick` once per game tick while the player keeps gathering; a refusal means "stop".
 *
 *   success chance per tick = min(cap, baseChance + 0.01 × (level − action level) + tool speedBonus),
 *   cap = max(0.95, baseChance)
 *
 * When a node offers several actions (a rod spot gives salmon from 30 and trout from 15) the highest-level one
 * the player can do is rolled first, then the next. After a success the node depletes with the resource's
 * `depleteChance` and comes back after `respawnTicks`. Outputs are a source; consumed bait is a sink.
 */
import type { GatheringAction, ResourceNode, Tool, ToolType } from '../manifests/schemas/skilling.ts';
import { wornItems, type Equipment } from './equipment.ts';
import { applyTransfer, canFit, countItem, type Inventory, type InventoryCode } from './inventory.ts';
import type { ItemAmount, ItemDefinitions } from './items.ts';
import { tenthsOf } from './experience.ts';
import { ok, refuse, type Result } from './result.ts';
import { ticksToMs } from './ticks.ts';

export const LEVEL_BONUS_PER_LEVEL = 0.01;
export const MAX_GATHER_CHANCE = 0.95;

/** A placed node in the world. */
export interface ResourceNodeState {
  readonly resourceId: string;
  /** When a depleted node comes back; null while it is available. */
  readonly depletedUntil: number | null;
}

export type GatheringCode = InventoryCode | 'NODE_DEPLETED' | 'LEVEL_TOO_LOW' | 'NO_TOOL' | 'MISSING_ITEMS' | 'NOTHING_TO_GATHER';

export interface GatheringContext {
  readonly node: ResourceNodeState;
  readonly resource: ResourceNode;
  /** The gathering actions for this resource (GameData.gathering[skill] filtered by resourceId). */
  readonly actions: readonly GatheringAction[];
  /** The player's level in the resource's skill. */
  readonly level: number;
  readonly inventory: Inventory;
  readonly equipment: Equipment;
  readonly items: ItemDefinitions;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly now: number;
}

export interface GatherOutcome {
  readonly inventory: Inventory;
  readonly node: ResourceNodeState;
  /** The action that succeeded, or null when this tick's attempt failed. */
  readonly actionId: string | null;
  readonly gained: readonly ItemAmount[];
  /** Experience gained, in tenths of a point (experience.ts). */
  readonly xpTenths: number;
  readonly depleted: boolean;
}

export function isNodeAvailable(node: ResourceNodeState, now: number): boolean {
  return node.depletedUntil === null || now >= node.depletedUntil;
}

/** The best tool of a type the player carries or wields and has the level for (highest speed bonus). */
export function bestTool(
  type: ToolType,
  level: number,
  inventory: Inventory,
  equipment: Equipment,
  tools: ReadonlyMap<string, Tool>,
): Tool | null {
  let best: Tool | null = null;
  for (const held of [...inventory, ...wornItems(equipment)]) {
    const tool = held ? tools.get(held.itemId) : undefined;
    if (tool && tool.type === type && tool.level <= level && (best === null || tool.speedBonus > best.speedBonus)) best = tool;
  }
  return best;
}

export function gatherChance(action: GatheringAction, level: number, tool: Tool): number {
  const cap = Math.max(MAX_GATHER_CHANCE, action.baseChance);
  return Math.max(0, Math.min(cap, action.baseChance + LEVEL_BONUS_PER_LEVEL * (level - action.level) + tool.speedBonus));
}

/** The actions the player could attempt now, highest level first, each with its tool; or why none. */
export function gatherableActions(ctx: GatheringContext): Result<{ action: GatheringAction; tool: Tool }[], GatheringCode> {
  if (!isNodeAvailable(ctx.node, ctx.now)) return refuse('NODE_DEPLETED', `the ${ctx.resource.name.toLowerCase()} is depleted`);
  const actions = ctx.actions.filter((a) => a.resourceId === ctx.resource.id);
  if (actions.length === 0) return refuse('NOTHING_TO_GATHER', `nothing can be gathered from ${ctx.resource.name}`);
  const levelled = actions.filter((a) => a.level <= ctx.level).sort((a, b) => b.level - a.level);
  if (levelled.length === 0) {
    const lowest = Math.min(...actions.map((a) => a.level));
    return refuse('LEVEL_TOO_LOW', `you need ${ctx.resource.skill} ${lowest} (you have ${ctx.level})`);
  }
  const tooled = levelled.flatMap((action) => {
    const tool = bestTool(action.tool, ctx.level, ctx.inventory, ctx.equipment, ctx.tools);
    return tool ? [{ action, tool }] : [];
  });
  if (tooled.length === 0) return refuse('NO_TOOL', `you need a ${levelled[0].tool} you can use`);
  const supplied = tooled.filter(({ action }) => action.consumes.every((c) => countItem(ctx.inventory, c.itemId) >= c.quantity));
  if (supplied.length === 0) {
    const needs = tooled[tooled.length - 1].action.consumes.map((c) => c.itemId).join(', ');
    return refuse('MISSING_ITEMS', `you need ${needs}`);
  }
  const fitting = supplied.filter(({ action }) => canFit(ctx.inventory, ctx.items, action.outputs, action.consumes));
  if (fitting.length === 0) return refuse('INVENTORY_FULL', 'your inventory is too full to hold any more');
  return ok(fitting);
}

/** One tick of gathering. */
export function gatherTick(ctx: GatheringContext, rng: () => number): Result<GatherOutcome, GatheringCode> {
  const candidates = gatherableActions(ctx);
  if (!candidates.ok) return candidates;
  const node = ctx.node.depletedUntil === null ? ctx.node : { ...ctx.node, depletedUntil: null };
  for (const { action, tool } of candidates.value) {
    if (!(rng() < gatherChance(action, ctx.level, tool))) continue;
    const inventory = applyTransfer(ctx.inventory, ctx.items, action.consumes, action.outputs);
    if (!inventory.ok) return inventory;
    const depleted = rng() < ctx.resource.depleteChance;
    return ok({
      inventory: inventory.value,
      node: depleted ? { ...node, depletedUntil: ctx.now + ticksToMs(ctx.resource.respawnTicks) } : node,
      actionId: action.id,
      gained: action.outputs,
      xpTenths: tenthsOf(action.xp),
      depleted,
    });
  }
  return ok({ inventory: ctx.inventory, node, actionId: null, gained: [], xpTenths: 0, depleted: false });
}
