/**
 * The versioned player and world endpoints (docs/api.md):
 *
 *   GET  /api/v1/player        the caller's account and characters, the active one marked
 *   POST /api/v1/player        create or update the caller's profile (displayName, avatar)
 *   GET  /api/v1/world         a snapshot of one running world: ?world=N, else the caller's, else the lowest-numbered
 *   GET  /api/v1/world/areas   the world's areas (manifests)
 */
import { Router } from 'express';
import { z } from 'zod';
import { requireLiveAccount } from '../../auth/accounts.ts';
import type { Identity } from '../../auth/tokens.ts';
import type { GameContext } from '../../context.ts';
import { accountChanged } from '../../db/account-changes.ts';
import { characterListingsOfAccount } from '../../db/characters.ts';
import type { Character } from '../../db/entities/index.ts';
import { findPlayerProfile, updatePlayerProfile } from '../../db/player-profiles.ts';
import { session } from '../../db/transaction.ts';
import { runningWorlds, worldNumbered, worldOf, worldOfCharacter, type RunningWorld } from '../../../rooms/world/running-world.ts';
import { worldsOf } from '../../db/worlds.ts';
import { insideRect } from '../../game/geometry.ts';
import { TICK_MS } from '../../game/ticks.ts';
import { GameError } from '../../game/refusal.ts';
import { defineRoute, NoQuery, type ApiRegistry } from './api-kit.ts';
import { PlayerCache, type AccountSnapshot } from './player-cache.ts';

export const DISPLAY_NAME_MAX = 24;
const DisplayName = z.string().trim().min(3, 'at least 3 characters').max(DISPLAY_NAME_MAX, `at most ${DISPLAY_NAME_MAX} characters`)
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9 _-]*[A-Za-z0-9_-])?$/, 'letters, digits, spaces, _ and - only; no edge spaces')
  .refine((name) => !name.includes('  '), 'no double spaces');
const Avatar = z.string().min(1).max(32).regex(/^[a-z0-9_-]+$/, 'an avatar id: a-z, 0-9, _ or -');

export const UpdatePlayerBody = z.object({
  displayName: DisplayName.optional(),
  /** An avatar id chosen by the client; null clears it. */
  avatar: Avatar.nullable().optional(),
}).strict().refine((body) => body.displayName !== undefined || body.avatar !== undefined, 'give displayName and/or avatar');

export const CharacterSummary = z.object({
  id: z.string(),
  name: z.string(),
  combatLevel: z.number().int(),
  online: z.boolean(),
  /** The selected character (POST /api/character/:id/select, or the character a bound token names). */
  active: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
}).meta({ id: 'CharacterSummary' });

export const PlayerResponse = z.object({
  accountId: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  roles: z.array(z.string()),
  scope: z.enum(['player', 'agent']),
  temporary: z.boolean(),
  accountExpiresAt: z.string().nullable(),
  activeCharacterId: z.string().nullable(),
  characters: z.array(CharacterSummary),
});

const AreaSummary = z.object({ id: z.string(), name: z.string(), type: z.string(), playersOnline: z.number().int() });
/** Which world GET /api/v1/world describes: this number, else the caller's world, else the lowest-numbered one. */
export const WorldQuery = z.object({
  world: z.coerce.number().int().positive().optional().describe('A world number (GET /api/v1/worlds lists them)'),
}).strict();

export const WorldResponse = z.object({
  /** The world's number (1, 2, …). */
  world: z.number().int(),
  /** The id of the world's room. */
  worldId: z.string(),
  tick: z.number().int(),
  tickMs: z.number().int(),
  time: z.string(),
  /** The players in this world (not the whole process). */
  playersOnline: z.number().int(),
  width: z.number().int(),
  depth: z.number().int(),
  tileSize: z.number(),
  home: z.object({ areaId: z.string(), x: z.number().int(), z: z.number().int() }),
  areas: z.array(AreaSummary),
});

export const AreaSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  bounds: z.object({ minX: z.number().int(), minZ: z.number().int(), maxX: z.number().int(), maxZ: z.number().int() }),
  biomeId: z.string(),
  pvp: z.boolean(),
  safe: z.boolean(),
  musicTrackId: z.string().nullable(),
}).meta({ id: 'Area' });
export const AreasResponse = z.object({ areas: z.array(AreaSchema), total: z.number().int() });

/** The character the caller has selected: a bound token's character, else the profile's choice. */
export async function activeCharacterId(context: GameContext, identity: Identity): Promise<string | null> {
  if (identity.characterId !== undefined) return identity.characterId;
  const profile = await findPlayerProfile(session(context.db), identity.accountId);
  return profile?.activeCharacterId ?? null;
}

export function summarize(context: GameContext, character: Character, activeId: string | null): z.infer<typeof CharacterSummary> {
  return {
    id: character.id,
    name: character.name,
    combatLevel: character.combatLevel,
    online: context.online.has(character.id),
    active: character.id === activeId,
    createdAt: character.createdAt.toISOString(),
    lastLoginAt: character.lastLoginAt ? character.lastLoginAt.toISOString() : null,
  };
}

/** Entering or leaving the world changes a character's last login and saved combat level: tell the caches. */
const watchedWorlds = new WeakSet<RunningWorld>();
function announceWorldChanges(world: RunningWorld | undefined): void {
  if (!world || watchedWorlds.has(world)) return;
  watchedWorlds.add(world);
  // Registered after the game's own hooks, so a leave is announced once its saves are written.
  world.onPlayerJoin((player) => accountChanged(player.accountId));
  world.onPlayerLeave((player) => accountChanged(player.accountId));
}

/**
 * The running world the caller plays in: the one its bound or active character is in (on this process), else the
 * one of its characters in a world here, lowest number first; undefined when none of them is in a world here.
 */
async function callerWorld(context: GameContext, identity: Identity): Promise<RunningWorld | undefined> {
  const active = await activeCharacterId(context, identity);
  if (active !== null) {
    const local = worldOfCharacter(context, active);
    if (local) return local;
    // Entering: the claim is written before the player is placed in the room.
    const number = (await worldsOf(context.db, [active])).get(active);
    const claimed = number === undefined ? undefined : worldNumbered(context, number);
    if (claimed) return claimed;
  }
  // A token bound to one character sees only that one.
  if (identity.characterId !== undefined) return undefined;
  return runningWorlds(context).find((world) => [...world.players()].some((player) => player.accountId === identity.accountId));
}

async function loadAccount(context: GameContext, accountId: string): Promise<AccountSnapshot> {
  const em = session(context.db);
  const user = await requireLiveAccount(em, accountId);
  const profile = await findPlayerProfile(em, user.id);
  const characters = await characterListingsOfAccount(em, user.id);
  return {
    accountId: user.id,
    displayName: user.displayName,
    avatar: profile?.avatar ?? null,
    temporary: user.isTemporary,
    expiresAt: user.isTemporary && user.expiresAt ? user.expiresAt : null,
    activeCharacterId: profile?.activeCharacterId ?? null,
    characters: characters.map((c) => ({
      id: c.id, name: c.name, combatLevel: c.combatLevel, createdAt: c.createdAt.toISOString(),
      lastLoginAt: c.lastLoginAt ? c.lastLoginAt.toISOString() : null,
    })),
  };
}

export function registerPlayerWorldRoutes(router: Router, registry: ApiRegistry, context: GameContext): void {
  const cache = new PlayerCache();
  const playerBody = async (identity: Identity): Promise<z.infer<typeof PlayerResponse>> => {
    for (const world of runningWorlds(context)) announceWorldChanges(world);
    const account = await cache.read(identity.accountId, () => loadAccount(context, identity.accountId), (id) => context.online.has(id));
    // A token bound to one character sees only that one, as its active character.
    const characters = identity.characterId !== undefined ? account.characters.filter((c) => c.id === identity.characterId) : account.characters;
    const activeId = identity.characterId ?? account.activeCharacterId;
    return {
      accountId: account.accountId,
      displayName: account.displayName,
      avatar: account.avatar,
      roles: [...identity.roles],
      scope: identity.scope,
      temporary: account.temporary,
      accountExpiresAt: account.expiresAt ? account.expiresAt.toISOString() : null,
      activeCharacterId: activeId,
      characters: characters.map((c) => {
        const online = context.online.has(c.id);
        return {
          id: c.id,
          name: c.name,
          combatLevel: (online ? worldOfCharacter(context, c.id)?.player(c.id)?.state.combatLevel : undefined) ?? c.combatLevel,
          online,
          active: c.id === activeId,
          createdAt: c.createdAt,
          lastLoginAt: c.lastLoginAt,
        };
      }),
    };
  };

  defineRoute(router, registry, {
    method: 'get', path: '/api/v1/player', tags: ['player'], query: NoQuery,
    summary: 'The caller\'s account and characters (an agent token sees only its character)',
    responses: { 200: { description: 'the player', schema: PlayerResponse } },
    errors: [400],
  }, async ({ res, identity }) => {
    res.json(await playerBody(identity));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/v1/player', tags: ['player'], scopes: ['player'], query: NoQuery, body: UpdatePlayerBody,
    summary: 'Create or update the caller\'s player profile (display name, avatar)',
    responses: { 200: { description: 'the updated player', schema: PlayerResponse } },
    errors: [400],
  }, async ({ res, identity, body }) => {
    const em = session(context.db);
    await requireLiveAccount(em, identity.accountId);
    await updatePlayerProfile(em, identity.accountId, { displayName: body.displayName, avatar: body.avatar });
    accountChanged(identity.accountId);
    res.json(await playerBody(identity));
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/v1/world', tags: ['world'], query: WorldQuery,
    summary: 'A snapshot of one running world (?world=N, else the caller\'s, else the lowest-numbered): number, id, tick, time, its players, areas',
    responses: { 200: { description: 'the world', schema: WorldResponse } },
    errors: [400, 404, 503], errorCodes: { 404: ['WORLD_NOT_FOUND'], 503: ['WORLD_UNAVAILABLE'] },
  }, async ({ res, identity, query }) => {
    const data = context.data;
    let world: RunningWorld | undefined;
    if (query.world !== undefined) {
      world = worldNumbered(context, query.world);
      if (!world) throw new GameError('WORLD_NOT_FOUND', `no world ${query.world} runs here`, { world: query.world });
    } else {
      world = await callerWorld(context, identity) ?? worldOf(context);
    }
    if (!world || !data) throw new GameError('WORLD_UNAVAILABLE', 'the world is not running');
    let playersOnline = 0;
    const counts = new Map<string, number>();
    for (const player of world.players()) {
      playersOnline += 1;
      for (const area of data.areasById.values()) {
        if (insideRect(area.bounds, player.x, player.z)) counts.set(area.id, (counts.get(area.id) ?? 0) + 1);
      }
    }
    res.json({
      world: world.worldNumber,
      worldId: world.roomId,
      tick: world.currentTick(),
      tickMs: TICK_MS,
      time: new Date().toISOString(),
      playersOnline,
      width: data.world.width,
      depth: data.world.depth,
      tileSize: data.world.tileSize,
      home: { ...data.world.home },
      areas: [...data.areasById.values()].map((a) => ({ id: a.id, name: a.name, type: a.type, playersOnline: counts.get(a.id) ?? 0 })),
    } satisfies z.infer<typeof WorldResponse>);
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/v1/world/areas', tags: ['world'], query: NoQuery,
    summary: 'All world areas from the manifests (a fixed list: not paginated)',
    responses: { 200: { description: 'the areas', schema: AreasResponse } },
    errors: [400],
  }, ({ res }) => {
    const areas = [...(context.data?.areasById.values() ?? [])].map((a) => ({
      id: a.id, name: a.name, type: a.type, bounds: { ...a.bounds }, biomeId: a.biomeId, pvp: a.pvp, safe: a.safe,
      musicTrackId: a.musicTrackId ?? null,
    }));
    res.json({ areas, total: areas.length } satisfies z.infer<typeof AreasResponse>);
  });
}
