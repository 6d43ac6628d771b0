/**
 * Conversations with NPCs: one open dialogue per player, walked with the pure rules of src/game/dialogue.ts. A
 * node's action runs before the player is shown the node (a refused action leaves the dialogue where it was):
 * `openBank` and `openStore` do what `bank:open` and `shop:open` do, `startQuest` / `advanceQuest` go through
 * `changeQuest`. Walking away, the NPC leaving, a trade taking the interface and dying close the dialogue.
 */
import { chooseOption, continueDialogue, startDialogue, type DialogueContext, type DialogueSession, type DialogueStep } from '../../../../src/game/dialogue.ts';
import type { Result } from '../../../../src/game/result.ts';
import type { DialogueAction, Dialogue } from '../../../../src/manifests/schemas/npcs.ts';
import { loadBanks } from '../../../../src/db/item-transaction.ts';
import { session } from '../../../../src/db/transaction.ts';
import { GameError } from '../../../../src/game/refusal.ts';
import { chebyshev } from '../../../../src/game/geometry.ts';
import { WorldSlot } from '../../area.ts';
import type { OnlinePlayer } from '../../online-player.ts';
import type { WorldApi } from '../../world-api.ts';
import { NpcEntity } from '../../world-entities.ts';
import { bankState } from '../../../../src/game/bank.ts';
import { REACH, assertNearBank } from '../economy/common.ts';
import { shopState, storeNear } from '../economy/shops.ts';
import { skillBooks } from '../../skill-book.ts';
import { changeQuest, questBookOf } from './quest-book.ts';

/** A dialogue stays open while the player is within this many tiles of the NPC (talking needs REACH). */
export const DIALOGUE_RANGE = REACH + 1;

export type CloseReason = 'END' | 'CLOSED' | 'WALKED_AWAY' | 'NPC_GONE' | 'INTERFACE_BLOCKED' | 'DIED' | 'REPLACED';

interface OpenDialogue {
  readonly npc: NpcEntity;
  readonly dialogue: Dialogue;
  session: DialogueSession;
  closed: boolean;
}

/** Character id → open dialogue, per world. */
export const openDialogues = new WorldSlot<Map<string, OpenDialogue>>('dialogues', () => new Map());

function npcRef(npc: NpcEntity): Record<string, unknown> {
  return { id: npc.id, npcId: npc.state.npcId, name: npc.state.name };
}

function contextOf(world: WorldApi, player: OnlinePlayer): DialogueContext {
  return { log: questBookOf(player).log, quests: world.data.questsById, levels: skillBooks.of(player).snapshot(), inventory: player.containers.inventory };
}

function stepOrThrow(result: Result<DialogueStep, string>): DialogueStep {
  if (!result.ok) throw new GameError(result.code, result.message);
  return result.value;
}

/**
 * The NPC the player means: an NPC entity id (`npc-5`) or an NPC id of the manifests (`old_tamsin`, the nearest
 * one), within REACH. UNKNOWN_NPC when no such NPC exists, NOT_NEAR_NPC when it is farther away.
 */
function findNpc(world: WorldApi, player: OnlinePlayer, ref: string): NpcEntity {
  let nearest: NpcEntity | undefined;
  world.grid.forEachNear(player.x, player.z, REACH, (entity) => {
    if (!(entity instanceof NpcEntity) || (entity.id !== ref && entity.state.npcId !== ref) || entity.state.health <= 0) return;
    if (!nearest || chebyshev(player, entity) < chebyshev(player, nearest)) nearest = entity;
  });
  if (nearest) return nearest;
  let exists = world.data.npcsById.has(ref);
  if (!exists) {
    const { width, depth } = world.data.world;
    world.grid.forEachNear(width / 2, depth / 2, Math.max(width, depth), (entity) => {
      if (entity instanceof NpcEntity && entity.id === ref) exists = true;
    });
  }
  if (!exists) throw new GameError('UNKNOWN_NPC', `There is no NPC '${ref.slice(0, 64)}'`);
  throw new GameError('NOT_NEAR_NPC', `Stand within ${REACH} tiles of the NPC to talk`);
}

async function runAction(world: WorldApi, player: OnlinePlayer, action: DialogueAction): Promise<void> {
  if (action.type === 'openBank') {
    assertNearBank(world, player);
    const banks = await loadBanks(session(world.context().db), [player.id]);
    player.client.send('bank:state', bankState(banks.get(player.id)!));
  } else if (action.type === 'openStore') {
    player.client.send('shop:state', shopState(world, storeNear(world, player, action.storeId)));
  } else if (action.type === 'startQuest') {
    await changeQuest(world, player, { type: 'start', questId: action.questId });
  } else {
    await changeQuest(world, player, { type: 'advance', questId: action.questId, stage: action.stage });
  }
}

function close(world: WorldApi, player: OnlinePlayer, open: OpenDialogue, reason: CloseReason): void {
  open.closed = true;
  const dialogues = openDialogues.of(world);
  if (dialogues.get(player.id) === open) dialogues.delete(player.id);
  player.client.send('dialogue:closed', { npc: npcRef(open.npc), dialogueId: open.dialogue.id, reason });
}

/**
 * Carries out the step's action, then shows its node (`event`) or, at the end, closes the dialogue. A dialogue
 * closed meanwhile (the player walked away while the action committed) is not reopened.
 */
async function show(world: WorldApi, player: OnlinePlayer, open: OpenDialogue, step: DialogueStep, event: 'dialogue:open' | 'dialogue:node'): Promise<void> {
  if (step.action) await runAction(world, player, step.action);
  if (open.closed) return;
  if (!step.session || !step.node) return close(world, player, open, 'END');
  open.session = step.session;
  player.client.send(event, {
    npc: npcRef(open.npc), dialogueId: open.dialogue.id, nodeId: step.node.id, speaker: step.node.speaker, text: step.node.text,
    options: step.options.map((o) => ({ index: o.index, text: o.text })), canContinue: step.node.next !== undefined,
  });
}

export async function talkTo(world: WorldApi, player: OnlinePlayer, ref: string): Promise<void> {
  player.assertFree('talk');
  const npc = findNpc(world, player, ref);
  const definition = world.data.npcsById.get(npc.state.npcId);
  const dialogue = definition?.dialogueId ? world.data.dialoguesById.get(definition.dialogueId) : undefined;
  if (!dialogue) throw new GameError('NO_DIALOGUE', `${npc.state.name} has nothing to say`);
  const step = stepOrThrow(startDialogue(dialogue, contextOf(world, player)));
  closeDialogue(world, player, 'REPLACED');
  const open: OpenDialogue = { npc, dialogue, session: { dialogueId: dialogue.id, nodeId: dialogue.start }, closed: false };
  await show(world, player, open, step, 'dialogue:open');
  if (!open.closed) openDialogues.of(world).set(player.id, open);
}

function openOf(world: WorldApi, player: OnlinePlayer): OpenDialogue {
  const open = openDialogues.of(world).get(player.id);
  if (!open) throw new GameError('NO_DIALOGUE_OPEN', 'You are not talking to anyone');
  return open;
}

export async function choose(world: WorldApi, player: OnlinePlayer, option: number | string): Promise<void> {
  player.assertFree('talk');
  const open = openOf(world, player);
  const step = stepOrThrow(chooseOption(open.dialogue, open.session, option, contextOf(world, player)));
  await show(world, player, open, step, 'dialogue:node');
}

export async function continueOn(world: WorldApi, player: OnlinePlayer): Promise<void> {
  player.assertFree('talk');
  const open = openOf(world, player);
  const step = stepOrThrow(continueDialogue(open.dialogue, open.session, contextOf(world, player)));
  await show(world, player, open, step, 'dialogue:node');
}

export function closeDialogue(world: WorldApi, player: OnlinePlayer, reason: CloseReason, required = false): void {
  const open = openDialogues.of(world).get(player.id);
  if (!open) {
    if (required) throw new GameError('NO_DIALOGUE_OPEN', 'You are not talking to anyone');
    return;
  }
  close(world, player, open, reason);
}

/** Leaving: the dialogue is dropped without a message. */
export function forgetDialogue(world: WorldApi, player: OnlinePlayer): void {
  const open = openDialogues.of(world).get(player.id);
  if (open) open.closed = true;
  openDialogues.of(world).delete(player.id);
}

/** The NPCs someone is talking to (entity ids): they stand still meanwhile. */
export function npcsInDialogue(world: WorldApi): Iterable<string> {
  return [...openDialogues.of(world).values()].map((open) => open.npc.id);
}

/** On the tick: dialogues whose player walked away, whose NPC is gone or whose interface a trade took end. */
export function checkOpenDialogues(world: WorldApi): void {
  for (const [characterId, open] of openDialogues.of(world)) {
    const player = world.player(characterId);
    if (!player) {
      openDialogues.of(world).delete(characterId);
      continue;
    }
    if (player.lock) close(world, player, open, 'INTERFACE_BLOCKED');
    else if (open.npc.state.health <= 0) close(world, player, open, 'NPC_GONE');
    else if (chebyshev(player, open.npc) > DIALOGUE_RANGE) close(world, player, open, 'WALKED_AWAY');
  }
}
