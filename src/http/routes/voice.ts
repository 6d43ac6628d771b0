/**
 * POST /api/voice/token (docs/api.md "Voice"): a short-lived access token for a LiveKit-style voice service,
 * letting the caller's character join the voice room of the world it is in. VOICE_API_KEY, VOICE_API_SECRET and
 * VOICE_URL configure it, all three or none (config.ts); unconfigured, the route answers 404 VOICE_NOT_CONFIGURED.
 *
 * The token is an HS256 JWT signed with VOICE_API_SECRET: `iss` the API key, `sub` the character id (the
 * participant identity), `name` the character name, `nbf`/`exp` (VOICE_TOKEN_TTL_SECONDS), and the grant
 * `video: {room, roomJoin, canPublish, canSubscribe, canPublishData: false}` (data messages would bypass chat rules).
 */
import type { Router } from 'express';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { assertMayActAs } from '../../auth/accounts.ts';
import type { Identity } from '../../auth/tokens.ts';
import { runningWorlds, worldOfCharacter } from '../../../rooms/world/running-world.ts';
import type { Config } from '../../config.ts';
import type { GameContext } from '../../context.ts';
import { session } from '../../db/transaction.ts';
import { GameError } from '../../game/refusal.ts';
import { defineRoute, IdParam, type ApiRegistry } from './api-kit.ts';
import { activeCharacterId } from './player-world.ts';

/** Lifetime of a voice token: enough to connect (the voice service checks expiry at connection time only). */
export const VOICE_TOKEN_TTL_SECONDS = 600;

export interface VoiceSettings {
  apiKey: string;
  apiSecret: string;
  url: string;
}

export interface VoiceGrant {
  /** The participant identity: the character id. */
  identity: string;
  name: string;
  room: string;
}

export function voiceSettings(config: Config): VoiceSettings | undefined {
  const { voiceApiKey: apiKey, voiceApiSecret: apiSecret, voiceUrl: url } = config;
  return apiKey && apiSecret && url ? { apiKey, apiSecret, url } : undefined;
}

/** Signed with jsonwebtoken, as the server's own tokens are (jose serves only the identity provider's key set). */
export function signVoiceToken(settings: VoiceSettings, grant: VoiceGrant, nowMs = Date.now()): { token: string; expiresAt: Date } {
  const now = Math.floor(nowMs / 1000);
  const expires = now + VOICE_TOKEN_TTL_SECONDS;
  const token = jwt.sign({
    name: grant.name,
    video: { room: grant.room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false },
    nbf: now,
    exp: expires,
  }, settings.apiSecret, { algorithm: 'HS256', issuer: settings.apiKey, subject: grant.identity, noTimestamp: true });
  return { token, expiresAt: new Date(expires * 1000) };
}

const VoiceTokenQuery = z.object({
  characterId: IdParam.optional().describe('Which of your characters; default: the token\'s character, else your one character in the world'),
}).strict();

export const VoiceTokenResponse = z.object({
  token: z.string().describe('HS256 JWT for the voice service'),
  url: z.string().describe('The voice service address (VOICE_URL)'),
  room: z.string().describe('The voice room: the id of the world room the character is in'),
  identity: z.string().describe('The participant identity: the character id'),
  name: z.string(),
  expiresAt: z.string(),
}).meta({ id: 'VoiceToken' });

export function registerVoiceRoutes(router: Router, registry: ApiRegistry, context: GameContext): void {
  /** The character the token is for: asked for, else the token's, else the caller's one character in the world. */
  async function characterIdFor(identity: Identity, requested: string | undefined): Promise<string> {
    const id = requested ?? identity.characterId;
    if (id !== undefined) return id;
    const inWorld = runningWorlds(context).flatMap((world) => [...world.players()].filter((player) => player.accountId === identity.accountId));
    if (inWorld.length === 1) return inWorld[0].id;
    if (inWorld.length === 0) throw new GameError('NOT_IN_WORLD', 'none of your characters is in the world; enter it first');
    const active = await activeCharacterId(context, identity);
    if (active !== null && inWorld.some((player) => player.id === active)) return active;
    throw new GameError('CHARACTER_REQUIRED', 'several of your characters are in the world: give ?characterId=');
  }

  defineRoute(router, registry, {
    method: 'post', path: '/api/voice/token', tags: ['voice'], scopes: ['player'], query: VoiceTokenQuery,
    summary: `A voice-chat access token (valid ${VOICE_TOKEN_TTL_SECONDS / 60} min) for the world room your character is in`,
    responses: { 200: { description: 'the token and where to use it', schema: VoiceTokenResponse } },
    errors: [400, 404, 409],
    errorCodes: { 400: ['VALIDATION_FAILED', 'CHARACTER_REQUIRED'], 403: ['CHARACTER_NOT_OWNED'], 404: ['VOICE_NOT_CONFIGURED', 'CHARACTER_NOT_FOUND'], 409: ['NOT_IN_WORLD'] },
  }, async ({ res, identity, query }) => {
    const settings = voiceSettings(context.config);
    if (!settings) throw new GameError('VOICE_NOT_CONFIGURED', 'voice chat is not configured on this server');
    const characterId = await characterIdFor(identity, query.characterId);
    await assertMayActAs(session(context.db), identity, characterId);
    const world = worldOfCharacter(context, characterId);
    const player = world?.player(characterId);
    if (!world || !player) throw new GameError('NOT_IN_WORLD', 'the character is not in the world; enter it first');
    const grant = { identity: player.id, name: player.name, room: world.roomId };
    const { token, expiresAt } = signVoiceToken(settings, grant);
    res.json({ token, url: settings.url, ...grant, expiresAt: expiresAt.toISOString() } satisfies z.infer<typeof VoiceTokenResponse>);
  });
}
