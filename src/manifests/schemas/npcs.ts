import { z } from 'zod';
import { Id, Level, NonNegativeInt, PositiveInt, Probability, uniqueById } from './common.ts';

/** One roll of a drop table: with `chance` (0–1), drop between `min` and `max` of `itemId`. */
export const Drop = z
  .object({
    itemId: Id,
    chance: Probability,
    min: PositiveInt,
    max: PositiveInt,
  })
  .refine((d) => d.min <= d.max, 'min must not exceed max');
export type Drop = z.infer<typeof Drop>;

export const NpcCombat = z.object({
  level: PositiveInt,
  hitpoints: PositiveInt,
  attack: Level,
  strength: Level,
  defense: Level,
  maxHit: NonNegativeInt,
  /** Game ticks (0.6 s) between attacks. */
  attackSpeed: PositiveInt,
  aggressive: z.boolean().default(false),
  /** Game ticks until a killed NPC reappears at its spawn. */
  respawnTicks: PositiveInt,
});
export type NpcCombat = z.infer<typeof NpcCombat>;

export const NPC_ROLES = ['combat', 'banker', 'shopkeeper', 'quest', 'townsfolk'] as const;

export const Npc = z.object({
  id: Id,
  name: z.string().min(1),
  examine: z.string().default(''),
  role: z.enum(NPC_ROLES),
  /** Present for NPCs that can be attacked. */
  combat: NpcCombat.optional(),
  drops: z.array(Drop).default([]),
  /** Dialogue tree started by talking to the NPC. */
  dialogueId: Id.optional(),
});
export type Npc = z.infer<typeof Npc>;

export const NpcsFile = uniqueById(Npc);

export const END = 'end';

/** What happens when the player reaches a dialogue node. */
export const DialogueAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('openBank') }),
  z.object({ type: z.literal('openStore'), storeId: Id }),
  z.object({ type: z.literal('startQuest'), questId: Id }),
  z.object({ type: z.literal('advanceQuest'), questId: Id, stage: NonNegativeInt }),
]);
export type DialogueAction = z.infer<typeof DialogueAction>;

/** A node id or `end`. */
const NextNode = z.union([z.literal(END), Id]);

export const DialogueNode = z
  .object({
    id: Id,
    speaker: z.enum(['npc', 'player']),
    text: z.string().min(1),
    options: z.array(z.object({ text: z.string().min(1), next: NextNode })).optional(),
    next: NextNode.optional(),
    action: DialogueAction.optional(),
  })
  .refine((n) => (n.options === undefined) !== (n.next === undefined), 'a node needs exactly one of options or next');
export type DialogueNode = z.infer<typeof DialogueNode>;

export const Dialogue = z.object({
  id: Id,
  npcId: Id,
  start: Id,
  nodes: uniqueById(DialogueNode).min(1),
});
export type Dialogue = z.infer<typeof Dialogue>;

export const DialogueFile = uniqueById(Dialogue);
