/**
 * Player data queries (docs/api.md), about one of the caller's characters: `?characterId=` when given, else the
 * character the token is bound to, else the active (selected) one.
 *
 *   GET /api/player/inventory   28 slots
 *   GET /api/player/equipment   worn items by slot
 *   GET /api/player/bank        banked items by tab (paginated)
 *   GET /api/player/friends     friends (paginated)
 *   GET /api/player/quests      every quest with status, stage and times, and the quest points
 */
import { Router } from 'express';
import { z } from 'zod';
import { assertMayActAs } from '../../auth/accounts.ts';
import type { Identity } from '../../auth/tokens.ts';
import type { GameContext } from '../../context.ts';
import { EQUIPMENT_SLOTS } from '../../manifests/schemas/items.ts';
import type { Character } from '../../db/entities/index.ts';
import { listBankTabs, listEquipmentSlots, listInventorySlots, pageBankItems } from '../../db/item-listings.ts';
import { journalOf, loadQuestProgress } from '../../db/quest-progress.ts';
import { characterNames, pageFriendships } from '../../db/social.ts';
import { session } from '../../db/transaction.ts';
import { INVENTORY_SIZE } from '../../game/inventory.ts';
import { GameError } from '../../game/refusal.ts';
import { defineRoute, IdParam, page, pageOf, Pagination, type ApiRegistry } from './api-kit.ts';
import { activeCharacterId } from './player-world.ts';

const CharacterQuery = z.object({ characterId: IdParam.optional() }).strict();
const PagedCharacterQuery = Pagination.extend({ characterId: IdParam.optional() }).strict();

const ItemRef = z.object({ itemId: z.string(), name: z.string().nullable(), quantity: z.number().int() });

export const InventoryResponse = z.object({
  characterId: z.string(),
  capacity: z.number().int(),
  used: z.number().int(),
  /** One entry per slot 0–27; null for an empty slot. */
  slots: z.array(ItemRef.extend({ slot: z.number().int() }).nullable()),
});

export const EquipmentResponse = z.object({
  characterId: z.string(),
  slots: z.object(Object.fromEntries(EQUIPMENT_SLOTS.map((s) => [s, ItemRef.nullable()])) as Record<(typeof EQUIPMENT_SLOTS)[number], z.ZodNullable<typeof ItemRef>>),
});

const BankEntry = ItemRef.extend({ tabIndex: z.number().int(), position: z.number().int() });
export const BankResponse = pageOf(BankEntry).extend({
  characterId: z.string(),
  tabs: z.array(z.object({ tabIndex: z.number().int(), name: z.string() })),
});

const Friend = z.object({ characterId: z.string(), name: z.string(), online: z.boolean(), since: z.string() });
export const FriendsResponse = pageOf(Friend).extend({ characterId: z.string() });

const QuestEntry = z.object({
  questId: z.string(),
  name: z.string(),
  difficulty: z.enum(['novice', 'intermediate', 'experienced']),
  status: z.enum(['not-started', 'in-progress', 'completed']),
  /** 0 = not started; `finalStage` = completed. */
  stage: z.number().int(),
  finalStage: z.number().int(),
  /** What to do next: the current stage's description. */
  description: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export const QuestsResponse = z.object({
  characterId: z.string(),
  questPoints: z.number().int(),
  completed: z.number().int(),
  total: z.number().int(),
  quests: z.array(QuestEntry),
});

const NO_CHARACTER = 'CHARACTER_REQUIRED';

export function registerPlayerDataRoutes(router: Router, registry: ApiRegistry, context: GameContext): void {
  const em = () => session(context.db);
  const itemName = (id: string) => context.data?.itemsById.get(id)?.name ?? null;

  async function characterFor(identity: Identity, requested: string | undefined): Promise<Character> {
    const id = requested ?? await activeCharacterId(context, identity);
    if (!id) throw new GameError(NO_CHARACTER, 'give ?characterId= or select a character first (POST /api/character/:id/select)');
    return assertMayActAs(em(), identity, id);
  }

  const common = {
    tags: ['player-data'],
    errors: [400, 404],
    errorCodes: { 400: ['VALIDATION_FAILED', NO_CHARACTER], 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'] },
  };

  defineRoute(router, registry, {
    ...common, method: 'get', path: '/api/player/inventory', query: CharacterQuery,
    summary: 'The inventory (28 slots) of the caller\'s character',
    responses: { 200: { description: 'the inventory', schema: InventoryResponse } },
  }, async ({ res, identity, query }) => {
    const character = await characterFor(identity, query.characterId);
    const rows = await listInventorySlots(em(), character.id);
    const slots: z.infer<typeof InventoryResponse>['slots'] = Array.from({ length: INVENTORY_SIZE }, () => null);
    for (const row of rows) slots[row.slot] = { slot: row.slot, itemId: row.itemId, name: itemName(row.itemId), quantity: row.quantity };
    res.json({ characterId: character.id, capacity: INVENTORY_SIZE, used: rows.length, slots } satisfies z.infer<typeof InventoryResponse>);
  });

  defineRoute(router, registry, {
    ...common, method: 'get', path: '/api/player/equipment', query: CharacterQuery,
    summary: 'The worn equipment of the caller\'s character, by slot',
    responses: { 200: { description: 'the equipment', schema: EquipmentResponse } },
  }, async ({ res, identity, query }) => {
    const character = await characterFor(identity, query.characterId);
    const rows = await listEquipmentSlots(em(), character.id);
    const slots = Object.fromEntries(EQUIPMENT_SLOTS.map((s) => [s, null])) as Record<string, z.infer<typeof ItemRef> | null>;
    for (const row of rows) slots[row.slotType] = { itemId: row.itemId, name: itemName(row.itemId), quantity: row.quantity };
    res.json({ characterId: character.id, slots } as z.infer<typeof EquipmentResponse>);
  });

  defineRoute(router, registry, {
    ...common, method: 'get', path: '/api/player/bank', query: PagedCharacterQuery,
    summary: 'The bank of the caller\'s character: tabs and items by tab and position (limit/offset pagination)',
    responses: { 200: { description: 'a page of banked items', schema: BankResponse } },
  }, async ({ res, identity, query }) => {
    const character = await characterFor(identity, query.characterId);
    const fork = em();
    const tabs = await listBankTabs(fork, character.id);
    const [rows, total] = await pageBankItems(fork, character.id, query.limit, query.offset);
    const items = rows.map((r) => ({ itemId: r.itemId, name: itemName(r.itemId), quantity: r.quantity, tabIndex: r.tabIndex, position: r.position }));
    res.json({
      ...page(items, total, query.limit, query.offset),
      characterId: character.id,
      tabs: tabs.map((t) => ({ tabIndex: t.tabIndex, name: t.name })),
    } satisfies z.infer<typeof BankResponse>);
  });

  defineRoute(router, registry, {
    ...common, method: 'get', path: '/api/player/friends', query: PagedCharacterQuery,
    summary: 'The friends of the caller\'s character, oldest friendship first (limit/offset pagination)',
    responses: { 200: { description: 'a page of friends', schema: FriendsResponse } },
  }, async ({ res, identity, query }) => {
    const character = await characterFor(identity, query.characterId);
    const [rows, total] = await pageFriendships(em(), character.id, query.limit, query.offset);
    const names = await characterNames(context.db, rows.map((r) => r.friendId));
    const items = rows.map((r) => ({ characterId: r.friendId, name: names.get(r.friendId) ?? '', online: context.online.has(r.friendId), since: r.createdAt.toISOString() }));
    res.json({ ...page(items, total, query.limit, query.offset), characterId: character.id } satisfies z.infer<typeof FriendsResponse>);
  });

  defineRoute(router, registry, {
    ...common, method: 'get', path: '/api/player/quests', query: CharacterQuery,
    summary: 'Quest progress of the caller\'s character: every quest with status, stage and times, and the quest points',
    responses: { 200: { description: 'the quest journal', schema: QuestsResponse } },
  }, async ({ res, identity, query }) => {
    const character = await characterFor(identity, query.characterId);
    const progress = await loadQuestProgress(em(), character.id);
    if (!progress) throw new GameError('CHARACTER_NOT_FOUND', 'no such character');
    const quests = journalOf(progress, context.data?.questsById ?? new Map());
    res.json({
      characterId: character.id, questPoints: progress.questPoints, completed: quests.filter((q) => q.status === 'completed').length,
      total: quests.length, quests,
    } satisfies z.infer<typeof QuestsResponse>);
  });
}
