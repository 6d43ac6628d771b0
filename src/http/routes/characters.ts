/**
 * Character data and management (docs/api.md):
 *
 *   GET    /api/characters/:characterId/skills     all 17 skills, level and experience
 *   GET    /api/characters/:characterId/position   tile position and online status (live when online)
 *   GET    /api/character                          the caller's characters (paginated)
 *   POST   /api/character                          create one {name, templateId?}
 *   GET    /api/character/:characterId             one of them
 *   DELETE /api/character/:characterId             delete it (not while it is in the world)
 *   POST   /api/character/:characterId/select      make it the active character; returns a token bound to it
 */
import { Router } from 'express';
import { z } from 'zod';
import { assertMayActAs, assertOwnsCharacter } from '../../auth/accounts.ts';
import { authServiceOf } from '../../auth/middleware.ts';
import type { GameContext } from '../../context.ts';
import { accountChanged } from '../../db/account-changes.ts';
import { createCharacter } from '../../db/character-creation.ts';
import { wholePoints } from '../../game/experience.ts';
import { deleteCharacter, pageCharactersOfAccount } from '../../db/characters.ts';
import { selectActiveCharacter } from '../../db/player-profiles.ts';
import { session } from '../../db/transaction.ts';
import { SKILLS, type Skill } from '../../game/skills.ts';
import { worldOfCharacter } from '../../../rooms/world/running-world.ts';
import { insideRect } from '../../game/geometry.ts';
import { requestAddress } from '../../limits/client-address.ts';
import { GameError } from '../../game/refusal.ts';
import { defineRoute, IdParam, NoQuery, page, pageOf, Pagination, type ApiRegistry } from './api-kit.ts';
import { activeCharacterId, CharacterSummary, summarize } from './player-world.ts';

/** Characters one account may hold. */

const CharacterParams = z.object({ characterId: IdParam }).strict();

const SkillEntry = z.object({ level: z.number().int(), experience: z.number().int().meta({ description: 'whole points (the server counts tenths of a point; they are rounded down)' }) });
export const SkillsResponse = z.object({
  characterId: z.string(),
  skills: z.object(Object.fromEntries(SKILLS.map((s) => [s, SkillEntry])) as Record<Skill, typeof SkillEntry>),
  totalLevel: z.number().int(),
  combatLevel: z.number().int(),
});

export const PositionResponse = z.object({
  characterId: z.string(),
  online: z.boolean(),
  /** `live` from the running world, `saved` from the database (offline). */
  source: z.enum(['live', 'saved']),
  x: z.number().int(),
  z: z.number().int(),
  /** The area the tile lies in (the most specific one when areas nest), null in none. */
  areaId: z.string().nullable(),
  /** What the character is doing (live only): idle, walking, … */
  action: z.string().nullable(),
  moving: z.boolean(),
});

export const CreateCharacterBody = z.object({
  name: z.string().max(64),
  /** A starting kit from GET /api/template. */
  templateId: IdParam.optional(),
}).strict();

export const SelectResponse = z.object({
  activeCharacterId: z.string(),
  token: z.string(),
  tokenType: z.literal('Bearer'),
  expiresAt: z.string(),
});

export function registerCharacterRoutes(router: Router, registry: ApiRegistry, context: GameContext): void {
  const em = () => session(context.db);

  function areaAt(x: number, z: number): string | null {
    let best: { id: string; size: number } | null = null;
    for (const area of context.data?.areasById.values() ?? []) {
      if (!insideRect(area.bounds, x, z)) continue;
      const size = (area.bounds.maxX - area.bounds.minX + 1) * (area.bounds.maxZ - area.bounds.minZ + 1);
      if (!best || size < best.size) best = { id: area.id, size };
    }
    return best?.id ?? null;
  }

  defineRoute(router, registry, {
    method: 'get', path: '/api/characters/:characterId/skills', tags: ['characters'], params: CharacterParams, query: NoQuery,
    summary: 'All 17 skills of a character you own (or your agent token is bound to): level and experience',
    responses: { 200: { description: 'the skills', schema: SkillsResponse } },
    errors: [400, 404], errorCodes: { 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'] },
  }, async ({ res, identity, params }) => {
    const character = await assertMayActAs(em(), identity, params.characterId);
    const row = character as unknown as Record<string, number>;
    const skills = Object.fromEntries(SKILLS.map((s) => [s, { level: row[`${s}Level`] ?? 1, experience: wholePoints(row[`${s}XpTenths`] ?? 0) }]));
    res.json({
      characterId: character.id,
      skills: skills as z.infer<typeof SkillsResponse>['skills'],
      totalLevel: SKILLS.reduce((sum, s) => sum + (row[`${s}Level`] ?? 1), 0),
      combatLevel: character.combatLevel,
    } satisfies z.infer<typeof SkillsResponse>);
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/characters/:characterId/position', tags: ['characters'], params: CharacterParams, query: NoQuery,
    summary: 'Tile position and online status of a character you own (live from the world when online)',
    responses: { 200: { description: 'the position', schema: PositionResponse } },
    errors: [400, 404], errorCodes: { 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'] },
  }, async ({ res, identity, params }) => {
    const character = await assertMayActAs(em(), identity, params.characterId);
    const live = worldOfCharacter(context, character.id)?.player(character.id);
    if (live) {
      res.json({
        characterId: character.id, online: true, source: 'live', x: live.x, z: live.z, areaId: areaAt(live.x, live.z),
        action: live.state.action, moving: live.path.length > 0,
      } satisfies z.infer<typeof PositionResponse>);
      return;
    }
    const tileSize = context.data?.world.tileSize ?? 1;
    const home = context.data?.world.home ?? { x: 0, z: 0 };
    // A character that never entered the world starts at home (as the world would place it).
    const x = character.lastLoginAt ? Math.round(character.positionX / tileSize) : home.x;
    const z = character.lastLoginAt ? Math.round(character.positionZ / tileSize) : home.z;
    res.json({
      characterId: character.id, online: context.online.has(character.id), source: 'saved', x, z, areaId: areaAt(x, z),
      action: null, moving: false,
    } satisfies z.infer<typeof PositionResponse>);
  });

  // ---- /api/character/* : management, player tokens only ----

  defineRoute(router, registry, {
    method: 'get', path: '/api/character', tags: ['character'], scopes: ['player'], query: Pagination.strict(),
    summary: 'The caller\'s characters, oldest first (limit/offset pagination)',
    responses: { 200: { description: 'a page of characters', schema: pageOf(CharacterSummary) } },
    errors: [400],
  }, async ({ res, identity, query }) => {
    const [rows, total] = await pageCharactersOfAccount(em(), identity.accountId, query.limit, query.offset);
    const activeId = await activeCharacterId(context, identity);
    res.json(page(rows.map((c) => summarize(context, c, activeId)), total, query.limit, query.offset));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/character', tags: ['character'], scopes: ['player'], query: NoQuery, body: CreateCharacterBody,
    summary: 'Create a character: name 1–12 characters (letters, digits, single spaces, - and _), unique; optional starting kit',
    responses: { 201: { description: 'the new character', schema: CharacterSummary } },
    errors: [400, 404, 409],
    errorCodes: { 400: ['VALIDATION_FAILED', 'INVALID_NAME'], 404: ['TEMPLATE_NOT_FOUND'], 409: ['NAME_TAKEN', 'CHARACTER_LIMIT'] },
  }, async ({ res, identity, body }) => {
    const created = await createCharacter(em(), context.data, { accountId: identity.accountId, name: body.name, templateId: body.templateId });
    res.status(201).location(`/api/character/${created.id}`).json(summarize(context, created, await activeCharacterId(context, identity)));
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/character/:characterId', tags: ['character'], scopes: ['player'], params: CharacterParams, query: NoQuery,
    summary: 'One of the caller\'s characters',
    responses: { 200: { description: 'the character', schema: CharacterSummary } },
    errors: [400, 404], errorCodes: { 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'] },
  }, async ({ res, identity, params }) => {
    const character = await assertMayActAs(em(), identity, params.characterId);
    res.json(summarize(context, character, await activeCharacterId(context, identity)));
  });

  defineRoute(router, registry, {
    method: 'delete', path: '/api/character/:characterId', tags: ['character'], scopes: ['player'], params: CharacterParams, query: NoQuery,
    summary: 'Delete one of the caller\'s characters with everything it owns (not while it is in the world)',
    responses: { 204: { description: 'deleted' } },
    errors: [400, 404, 409], errorCodes: { 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'], 409: ['CHARACTER_ONLINE'] },
  }, async ({ res, identity, params }) => {
    const fork = em();
    const character = await assertMayActAs(fork, identity, params.characterId);
    // A character that has just left (its session ended) is gone once its save is written: wait for that.
    await context.leaving.get(character.id)?.catch(() => {});
    if (context.online.has(character.id)) throw new GameError('CHARACTER_ONLINE', 'leave the world before deleting this character');
    await deleteCharacter(fork, character.id);
    accountChanged(identity.accountId);
    res.status(204).end();
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/character/:characterId/select', tags: ['character'], scopes: ['player'], params: CharacterParams, query: NoQuery,
    summary: 'Make a character the active one; answers a player token bound to it (counts as an authentication attempt)',
    responses: { 200: { description: 'selected', schema: SelectResponse } },
    errors: [400, 404], errorCodes: { 403: ['CHARACTER_NOT_OWNED'], 404: ['CHARACTER_NOT_FOUND'], 429: ['RATE_LIMITED', 'AUTH_RATE_LIMITED'] },
  }, async ({ req, res, identity, params }) => {
    const fork = em();
    const character = await assertOwnsCharacter(fork, identity.accountId, params.characterId);
    const session = await authServiceOf(req).characterToken(identity, character.id, { address: requestAddress(req) });
    await selectActiveCharacter(fork, identity.accountId, character.id);
    accountChanged(identity.accountId);
    res.json({ activeCharacterId: character.id, token: session.token, tokenType: 'Bearer', expiresAt: session.expiresAt.toISOString() } satisfies z.infer<typeof SelectResponse>);
  });
}
