/**
 * /api/auth: obtaining and inspecting server tokens (docs/auth.md).
 *
 *   POST /api/auth/exchange         {idpToken} or Authorization: Bearer <idp token> → session   (IDP mode)
 *   POST /api/auth/anonymous        → session of a new temporary identity                    (anonymous mode)
 *   POST /api/auth/refresh          Bearer (player) → a fresh token for the same account and character
 *   POST /api/auth/character-token  Bearer (player) {characterId} → a token bound to a character you own
 *   GET  /api/auth/me               Bearer → the caller's account
 *
 * Every POST counts against the authentication limit (RATE_LIMIT_AUTH_PER_MINUTE per address).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { requireLiveAccount } from '../../auth/accounts.ts';
import { bearerToken, identityOf, requireAuth, requireScope } from '../../auth/middleware.ts';
import type { AuthService, Session } from '../../auth/service.ts';
import { effectiveRoles } from '../../auth/session-guard.ts';
import { characterNamesOfAccount } from '../../db/characters.ts';
import type { Database } from '../../db/database.ts';
import { session } from '../../db/transaction.ts';
import { requestAddress } from '../../limits/client-address.ts';
import { GameError } from '../../game/refusal.ts';

const ExchangeBody = z.object({ idpToken: z.string().min(1).max(16_384).optional() });
const CharacterTokenBody = z.object({ characterId: z.string().min(1).max(200) });

function parseBody<T>(schema: z.ZodType<T>, req: Request): T {
  const result = schema.safeParse(req.body ?? {});
  if (!result.success) {
    throw new GameError('VALIDATION_FAILED', 'The request body is not valid', {
      errors: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
  return result.data;
}

function sendSession(res: Response, session: Session, status = 200): void {
  res.status(status).set('Cache-Control', 'no-store').json({
    token: session.token,
    tokenType: 'Bearer',
    expiresAt: session.expiresAt.toISOString(),
    accountId: session.accountId,
    roles: session.roles,
    ...(session.characterId !== undefined ? { characterId: session.characterId } : {}),
    temporary: session.temporary,
    ...(session.accountExpiresAt ? { accountExpiresAt: session.accountExpiresAt.toISOString() } : {}),
  });
}

function addressOf(req: Request): string {
  return requestAddress(req);
}

export function createAuthRouter(auth: AuthService, db: Database): Router {
  const router = Router();

  router.post('/api/auth/exchange', async (req, res) => {
    const body = parseBody(ExchangeBody, req);
    let idpToken = body.idpToken;
    if (idpToken === undefined) {
      try {
        idpToken = bearerToken(req.get('authorization'));
      } catch {
        idpToken = undefined;
      }
    }
    sendSession(res, await auth.exchange(idpToken, { address: addressOf(req) }));
  });

  router.post('/api/auth/anonymous', async (req, res) => {
    sendSession(res, await auth.anonymous({ address: addressOf(req) }), 201);
  });

  router.post('/api/auth/refresh', requireScope('player'), async (req, res) => {
    sendSession(res, await auth.refresh(identityOf(req), { address: addressOf(req) }));
  });

  router.post('/api/auth/character-token', requireScope('player'), async (req, res) => {
    const { characterId } = parseBody(CharacterTokenBody, req);
    sendSession(res, await auth.characterToken(identityOf(req), characterId, { address: addressOf(req) }));
  });

  router.get('/api/auth/me', requireAuth, async (req, res) => {
    const identity = identityOf(req);
    const em = session(db);
    const user = await requireLiveAccount(em, identity.accountId);
    const characters = await characterNamesOfAccount(em, user.id);
    res.set('Cache-Control', 'no-store').json({
      accountId: user.id,
      displayName: user.displayName,
      // What the token may still do: its roles the account holds now (a removed role is gone before the token expires).
      roles: effectiveRoles(identity.roles, user.roles),
      scope: identity.scope,
      ...(identity.characterId !== undefined ? { characterId: identity.characterId } : {}),
      temporary: user.isTemporary,
      ...(user.isTemporary && user.expiresAt ? { accountExpiresAt: user.expiresAt.toISOString() } : {}),
      tokenExpiresAt: identity.expiresAt.toISOString(),
      characters: characters.map((character) => ({ id: character.id, name: character.name })),
    });
  });

  return router;
}
