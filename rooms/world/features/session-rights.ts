/**
 * The world side of live-session rights (src/auth/session-guard.ts, docs/auth.md "Live sessions"): every player
 * in the world is a guarded session of the token that brought it in. When the token expires, is revoked (agent
 * tokens), or the account is deleted or loses the player role, the player gets an `error` event with the code
 * (TOKEN_EXPIRED, SESSION_REVOKED, ACCOUNT_NOT_FOUND, INSUFFICIENT_ROLE), is taken out of the world at once with no
 * reconnection seat (so the owner can enter with the character right away) and its socket is closed: close code
 * 4001 on /ws, SESSION_ENDED_CLOSE (4401) for SDK clients. Every action checks the token's expiry first.
 *
 * `session:renew {token}` swaps in a fresh token of the same account, kind and character (the session then lives
 * until that token expires). Admin elevation (`/admin <code>`) is held by the session's own player token only:
 * never by agent tokens, never by what an agent sends through REST, and it is dropped when the session is resumed
 * by a reconnection.
 */
import { z } from 'zod';
import { agentActor } from '../../../src/agents/actor.ts';
import { AuthError } from '../../../src/auth/errors.ts';
import { PLAYER_ROLE, type GuardedSession } from '../../../src/auth/session-guard.ts';
import type { Identity } from '../../../src/auth/tokens.ts';
import { ROOM_CLOSE } from '../../../src/close-codes.ts';
import { gameContext } from '../../../src/context.ts';
import { GameError } from '../../../src/game/refusal.ts';
import type { OnlinePlayer } from '../online-player.ts';
import { PlayerSlot, defineArea, on, type HandlerContext } from '../area.ts';
import type { WorldApi } from '../world-api.ts';

/** Colyseus close code of a world session whose rights ended (the /ws adapter closes its socket with 4001). */
export const SESSION_ENDED_CLOSE = ROOM_CLOSE.SESSION_ENDED;

interface PlayerSession extends GuardedSession {
  /** The principal that elevated this session with the admin code (its kind and character binding). */
  elevatedBy?: { scope: Identity['scope']; characterId?: string };
  unregister?: () => void;
}

/** The guarded session of the player's token (made when the player enters). */
const sessions = new PlayerSlot<PlayerSession | undefined>('session', () => undefined);

/** The identity the world session of this player acts for (its token's, or the one it renewed to). */
export function sessionIdentity(player: OnlinePlayer): Identity | undefined {
  return sessions.peek(player)?.identity;
}

/**
 * The per-action check, before every handler of the player's messages: the session's token has not expired and the
 * session was not ended meanwhile. Refuses with the code (and the session ends).
 */
export function assertSessionActive(world: WorldApi, player: OnlinePlayer): void {
  const session = sessions.peek(player);
  if (!session) return;
  world.context().auth.sessions.assertActive(session);
}

/**
 * Why this player's session may not hold admin elevation now, or undefined when it may: agent-originated messages
 * never do, nor do agent tokens or accounts without the player role.
 */
export function elevationRefusal(player: OnlinePlayer): string | undefined {
  if (agentActor()) return 'agents cannot use admin access';
  const identity = sessionIdentity(player);
  if (!identity) return 'this session cannot use admin access';
  if (identity.scope !== 'player') return 'agent tokens cannot use admin access';
  if (!player.roles.includes(PLAYER_ROLE)) return 'this account cannot use admin access';
  return undefined;
}

/** Records that the session's current principal elevated it (`/admin <code>` succeeded). */
export function recordElevation(player: OnlinePlayer): void {
  const session = sessions.peek(player);
  if (!session) return;
  session.elevatedBy = { scope: session.identity.scope, characterId: session.identity.characterId };
  player.isAdmin = true;
}

/** Whether the player's session holds admin elevation for the principal acting now. */
export function holdsElevation(player: OnlinePlayer): boolean {
  if (!player.isAdmin || elevationRefusal(player) !== undefined) return false;
  const session = sessions.peek(player);
  const by = session?.elevatedBy;
  return by !== undefined && by.scope === session!.identity.scope && by.characterId === session!.identity.characterId;
}

/**
 * Called by the room when a dropped client resumed the player's seat: elevation does not survive a reconnection,
 * and the session acts for the token that resumed it from now on (its expiry, its revocation), when known.
 */
export function sessionResumed(player: OnlinePlayer, resumer?: Identity): void {
  player.isAdmin = false;
  const session = sessions.peek(player);
  if (!session) return;
  session.elevatedBy = undefined;
  if (resumer) {
    session.identity = { ...resumer, expiresAt: new Date(resumer.expiresAt) };
    player.roles = resumer.roles;
  }
}

const RenewRequest = z.object({ token: z.string().min(1).max(8192) }).strict();

async function renew({ world, player }: HandlerContext, { token }: z.infer<typeof RenewRequest>): Promise<void> {
  const auth = world.context().auth;
  const session = sessions.peek(player);
  if (!session) throw new GameError('NOT_IN_WORLD', 'You are not in the world');
  await auth.attempts.consume({ address: player.address, accountId: player.accountId }).catch((error: unknown) => {
    if (error instanceof AuthError) throw new GameError(error.code, error.message, { retryAfterSeconds: error.retryAfterSeconds });
    throw error;
  });
  const fresh = await auth.verifyAccessToken(token);
  const current = session.identity;
  if (fresh.accountId !== current.accountId || (fresh.characterId !== undefined && fresh.characterId !== player.id)) {
    throw new GameError('CHARACTER_NOT_OWNED', 'That token may not act as this character');
  }
  if (fresh.scope !== current.scope || fresh.characterId !== current.characterId) {
    throw new GameError('INSUFFICIENT_SCOPE', 'Renew with a token of the same kind and character binding as the session\'s');
  }
  session.identity = fresh;
  player.roles = fresh.roles;
  player.client.send('session:renewed', { expiresAt: fresh.expiresAt.toISOString() });
}

export const sessionRights = defineArea({
  name: 'session-rights',
  messages: { 'session:renew': on(RenewRequest, renew) },
  sends: ['session:renewed', 'error'],
  playerState: [sessions],
  install(world) {
    const auth = () => world.context().auth;

    world.onPlayerJoin((player) => {
      // The seat reservation carried the join's auth data as JSON: the expiry is a string again here.
      const joined = (player.client.auth as { identity: Identity }).identity;
      const session: PlayerSession = {
        identity: { ...joined, expiresAt: new Date(joined.expiresAt) },
        end: (reason) => {
          world.context().logger.info({ characterId: player.id, accountId: player.accountId, code: reason.code }, 'world session ended: its rights ended');
          player.removedFor = 'session_ended';
          player.isAdmin = false;
          const client = player.client;
          client.send('error', { code: reason.code, message: reason.message });
          if (player.state.action === 'disconnected') world.releaseSeat(client);
          else client.leave(SESSION_ENDED_CLOSE);
        },
        rolesChanged: (roles) => {
          player.roles = roles;
        },
      };
      sessions.set(player, session);
      session.unregister = auth().sessions.register(session);
    });
    world.onPlayerLeave((player) => {
      sessions.peek(player)?.unregister?.();
    });
  },
});
