/**
 * Creating a character — the one path used by REST (`POST /api/character`) and by entering the world with
 * `createCharacter`: the name rule, a per-account limit, an optional starting kit from the manifests (levels,
 * inventory, equipment), all written in one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { checkCharacterName } from '../game/character-name.ts';
import { GameError } from '../game/refusal.ts';
import { TENTHS_PER_POINT } from '../game/experience.ts';
import { combatLevel, SKILLS, startingLevels, xpForLevel, type Skill } from '../game/skills.ts';
import type { GameData } from '../manifests/game-data.ts';
import { accountChanged } from './account-changes.ts';
import { Character, EquipmentSlot, InventorySlot } from './entities/index.ts';

export const MAX_CHARACTERS_PER_ACCOUNT = 10;

export interface CharacterRequest {
  accountId: string;
  name: unknown;
  templateId?: string;
}

export async function createCharacter(em: SqlEntityManager, data: GameData | null, request: CharacterRequest): Promise<Character> {
  const check = checkCharacterName(request.name);
  if (!check.ok) throw new GameError('INVALID_NAME', check.message);
  const template = request.templateId !== undefined ? data?.templatesById.get(request.templateId) : undefined;
  if (request.templateId !== undefined && !template) {
    throw new GameError('TEMPLATE_NOT_FOUND', `no template "${request.templateId}"`);
  }
  const fork = em.fork();
  const limitReached = () =>
    new GameError('CHARACTER_LIMIT', `an account holds at most ${MAX_CHARACTERS_PER_ACCOUNT} characters`);
  // A cheap early answer; the count that decides is the one inside the transaction below.
  if (await fork.count(Character, { accountId: request.accountId }) >= MAX_CHARACTERS_PER_ACCOUNT) throw limitReached();
  const taken = () => new GameError('NAME_TAKEN', 'that name is taken');
  if (await fork.count(Character, { name: { $ilike: check.name } }) > 0) throw taken();
  const id = randomUUID();
  try {
    await fork.transactional(async (tx) => {
      // Creations for one account take turns on the account's row, so the count and the insert are one step:
      // parallel requests cannot all read "9" and all insert (each with a starter kit). The count is a new
      // statement after the lock is granted, so under READ COMMITTED it sees what the previous holder committed.
      await tx.execute('select id from users where id = ? for update', [request.accountId]);
      const [{ n }] = await tx.execute<Array<{ n: number }>>('select count(*)::int as n from characters where account_id = ?', [request.accountId]);
      if (n >= MAX_CHARACTERS_PER_ACCOUNT) throw limitReached();
      const levels: Record<Skill, number> = { ...startingLevels() };
      for (const [skill, level] of Object.entries(template?.skills ?? {}) as Array<[Skill, number]>) levels[skill] = Math.max(levels[skill], level);
      const skillColumns = Object.fromEntries(SKILLS.flatMap((s) => [[`${s}Level`, levels[s]], [`${s}XpTenths`, xpForLevel(levels[s]) * TENTHS_PER_POINT]]));
      tx.create(Character, { id, accountId: request.accountId, name: check.name, ...skillColumns, combatLevel: combatLevel(levels) });
      template?.inventory.forEach((stack, slot) => tx.create(InventorySlot, { characterId: id, slot, itemId: stack.itemId, quantity: stack.quantity }));
      for (const [slotType, itemId] of Object.entries(template?.equipment ?? {})) {
        if (itemId) tx.create(EquipmentSlot, { characterId: id, slotType, itemId, quantity: 1 });
      }
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) throw taken();
    throw error;
  }
  accountChanged(request.accountId);
  return em.fork().findOneOrFail(Character, { id });
}
