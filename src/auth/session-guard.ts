/**
 * Live sessions end when their rights end (docs/auth.md, "Live sessions"). A socket is authorised by a token once,
 * at `authenticate` or matchmaking; what it does afterwards is checked here:
 *
 * - every action of a registered session checks the token's expiry (`assertActive`: in memory, no I/O);
 * - revoking an agent token or changing an account (`tokenRevoked`, `accountChanged`, `accountsDeleted`) ends the
 *   affected sessions of this process at once and is published on the cluster's presence channel, so every other
 *   process does the same (a LocalPresence without REDIS_URL);
 * - a sweep every SESSION_CHECK_SECONDS re-reads, in one batch, the accounts (existence, temporary expiry, roles)
 *   and the agent tokens of the sessions still open, and ends those whose rights ended — the bound for changes made
 *   straight in the database or published while a process was not listening.
 *
 * The current roles of an account (token roles ∩ stored roles, so a demoted admin loses admin before the token
 * expires) are cached for the same period for REST guards (`currentRoles`), invalidated by the same events.
 * Ending a session is the registrant's business (`end`): the world sends an `error` event with the code, takes the
 * character out without a reconnection seat and closes the socket (close code 4001 on /ws).
 */
import type { Transaction } from '../db/transaction.ts';
import { loadAccountRights } from '../db/users.ts';
import { inChunks } from '../chunked.ts';
import type { Logger } from '../logger.ts';
import { AuthError } from './errors.ts';
import type { Identity } from './tokens.ts';

/** The role an account needs to act in the game at all (sockets, rooms, the game API). */
export const PLAYER_ROLE = 'player';
/** Presence channel carrying rights changes between processes. */
export const RIGHTS_CHANNEL = 'auth:rights-changed';

export interface GuardedSession {
  /** Who the session acts for; replaced when the session renews its token. */
  identity: Identity;
  /** Ends the session with this refusal (called at most once by the guard). */
  end(reason: AuthError): void;
  /** The account's current roles changed but still allow the session (e.g. admin removed). */
  rolesChanged?(roles: readonly string[]): void;
}

/** Which of these agent-token ids are revoked (or whose agent record names another account or character). */
export type RevokedTokenLookup = (tokens: ReadonlyArray<{ tokenId: string; accountId: string; characterId?: string }>) => Promise<Set<string>>;

/** What the guard needs of the cluster's presence (Colyseus Presence: Local without REDIS_URL, Redis with it). */
export interface RightsChannel {
  publish(topic: string, data: unknown): unknown;
  subscribe(topic: string, callback: (...args: unknown[]) => void): Promise<unknown>;
  unsubscribe(topic: string, callback?: (...args: unknown[]) => void): unknown;
}

type RightsMessage = { kind: 'token'; tokenId: string } | { kind: 'account'; accountId: string };

interface AccountState {
  roles: readonly string[] | null;
  loadedAt: number;
}

export interface SessionGuardOptions {
  logger: Logger;
  /** A fresh unit of work per use (src/db/transaction.ts `session`), handed to the users store. */
  em: () => Transaction;
  checkIntervalMs: number;
  now?: () => number;
}

/** Sessions checked per query of a sweep (see runSweep). */
export const SWEEP_CHUNK = 200;

export function sessionEnded(code: 'SESSION_REVOKED' | 'TOKEN_EXPIRED' | 'ACCOUNT_NOT_FOUND' | 'INSUFFICIENT_ROLE'): AuthError {
  switch (code) {
    case 'TOKEN_EXPIRED': return new AuthError(code, 'the session\'s access token expired; authenticate again with a fresh token');
    case 'ACCOUNT_NOT_FOUND': return new AuthError(code, 'the account of this session no longer exists');
    case 'INSUFFICIENT_ROLE': return new AuthError(code, `the account no longer has the ${PLAYER_ROLE} role`);
    default: return new AuthError(code, 'the session\'s access token was revoked');
  }
}

/** Roles the token claims that the account still holds (a token never grants more than the account has now). */
export function effectiveRoles(claimed: readonly string[], current: readonly string[]): readonly string[] {
  return claimed.filter((role) => current.includes(role));
}

export class SessionGuard {
  private readonly sessions = new Set<GuardedSession>();
  private readonly accounts = new Map<string, AccountState>();
  private readonly revocationSources: RevokedTokenLookup[] = [];
  private readonly logger: Logger;
  private readonly em: () => Transaction;
  private readonly checkIntervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private channel: RightsChannel | undefined;
  private readonly onMessage = (data: unknown) => this.apply(data as RightsMessage);

  constructor(options: SessionGuardOptions) {
    this.logger = options.logger;
    this.em = options.em;
    this.checkIntervalMs = options.checkIntervalMs;
    this.now = options.now ?? Date.now;
  }

  /** Adds a lookup of revoked agent tokens (the agents service), used by the sweep in one batch per source. */
  addRevocationSource(lookup: RevokedTokenLookup): void {
    this.revocationSources.push(lookup);
  }

  /** Registers a live session; the returned function unregisters it (call it when the session ends any way). */
  register(session: GuardedSession): () => void {
    this.sessions.add(session);
    return () => {
      this.sessions.delete(session);
    };
  }

  /** How many sessions are registered (metrics, tests). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * The per-action check: throws (and ends the session) once its token expired, or when the session was ended
   * meanwhile. Memory only.
   */
  assertActive(session: GuardedSession): void {
    if (!this.sessions.has(session)) throw sessionEnded('SESSION_REVOKED');
    if (session.identity.expiresAt.getTime() <= this.now()) {
      const reason = sessionEnded('TOKEN_EXPIRED');
      this.end(session, reason);
      throw reason;
    }
  }

  /** An agent token was revoked: its sessions end here now, and on every other process when they hear of it. */
  tokenRevoked(tokenId: string): void {
    this.apply({ kind: 'token', tokenId });
    this.publish({ kind: 'token', tokenId });
  }

  /**
   * An account changed (roles, deletion): the cached roles are forgotten and its sessions re-checked now, here
   * and on every other process. Returns once this process' check is done.
   */
  async accountChanged(accountId: string): Promise<void> {
    this.publish({ kind: 'account', accountId });
    await this.recheckAccount(accountId);
  }

  /** Accounts were deleted (e.g. expired temporary identities): their sessions end. */
  accountsDeleted(accountIds: readonly string[]): void {
    for (const accountId of accountIds) {
      this.accounts.set(accountId, { roles: null, loadedAt: this.now() });
      this.publish({ kind: 'account', accountId });
      for (const session of this.sessionsOf(accountId)) this.end(session, sessionEnded('ACCOUNT_NOT_FOUND'));
    }
  }

  /**
   * The roles this identity holds now: its token's roles that the account still has (stored roles read at most once
   * per SESSION_CHECK_SECONDS per account, or after a change event). ACCOUNT_NOT_FOUND when the account is gone.
   */
  async currentRoles(identity: Identity): Promise<readonly string[]> {
    let state = this.accounts.get(identity.accountId);
    if (!state || this.now() - state.loadedAt >= this.checkIntervalMs) {
      state = (await this.loadAccounts([identity.accountId])).get(identity.accountId)!;
    }
    if (state.roles === null) throw sessionEnded('ACCOUNT_NOT_FOUND');
    return effectiveRoles(identity.roles, state.roles);
  }

  /** Starts the periodic sweep and listens for rights changes published by other processes. */
  start(channel: RightsChannel | undefined): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.checkIntervalMs);
    this.timer.unref();
    if (channel) {
      this.channel = channel;
      channel.subscribe(RIGHTS_CHANNEL, this.onMessage).catch((error: unknown) =>
        this.logger.error({ err: error }, 'could not subscribe to rights changes'));
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.channel) {
      try {
        await this.channel.unsubscribe(RIGHTS_CHANNEL, this.onMessage);
      } catch {
        // The presence may already be gone at shutdown.
      }
      this.channel = undefined;
    }
    await this.sweeping;
  }

  /**
   * Re-checks every registered session: token expiry, the account (exists, not an expired temporary identity,
   * still has the player role; current roles passed on), and agent-token revocation. One query per kind.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.runSweep()
      .catch((error: unknown) => this.logger.error({ err: error }, 'session rights sweep failed'))
      .finally(() => { this.sweeping = undefined; });
    return this.sweeping;
  }

  // ---- internals ----

  /**
   * Checks the sessions SWEEP_CHUNK at a time, yielding to the event loop between chunks: on the embedded database a
   * query runs on the server's own thread, and one query for 2,000 sessions stalled a full world's tick for ~60 ms.
   */
  private async runSweep(): Promise<void> {
    const sessions = [...this.sessions];
    if (sessions.length === 0) return;
    const now = this.now();
    const live: GuardedSession[] = [];
    for (const session of sessions) {
      if (session.identity.expiresAt.getTime() <= now) this.end(session, sessionEnded('TOKEN_EXPIRED'));
      else live.push(session);
    }
    await inChunks(live, SWEEP_CHUNK, (chunk) => this.checkSessions(chunk));
  }

  private async recheckAccount(accountId: string): Promise<void> {
    this.accounts.delete(accountId);
    await this.checkSessions(this.sessionsOf(accountId));
  }

  private async checkSessions(sessions: GuardedSession[]): Promise<void> {
    if (sessions.length === 0) return;
    const accounts = await this.loadAccounts([...new Set(sessions.map((s) => s.identity.accountId))]);
    const agentTokens = sessions
      .filter((s) => s.identity.scope === 'agent' && s.identity.tokenId !== undefined)
      .map((s) => ({ tokenId: s.identity.tokenId!, accountId: s.identity.accountId, characterId: s.identity.characterId }));
    const revoked = new Set<string>();
    if (agentTokens.length > 0) {
      for (const lookup of this.revocationSources) for (const id of await lookup(agentTokens)) revoked.add(id);
    }
    for (const session of sessions) {
      if (!this.sessions.has(session)) continue;
      const { identity } = session;
      const roles = accounts.get(identity.accountId)?.roles ?? null;
      if (roles === null) this.end(session, sessionEnded('ACCOUNT_NOT_FOUND'));
      else if (!roles.includes(PLAYER_ROLE)) this.end(session, sessionEnded('INSUFFICIENT_ROLE'));
      else if (identity.tokenId !== undefined && revoked.has(identity.tokenId)) this.end(session, sessionEnded('SESSION_REVOKED'));
      else session.rolesChanged?.(effectiveRoles(identity.roles, roles));
    }
  }

  /** Reads the stored roles of these accounts (null: gone, or an expired temporary identity) and caches them. */
  private async loadAccounts(ids: string[]): Promise<Map<string, AccountState>> {
    const now = this.now();
    const rows = await loadAccountRights(this.em(), ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const states = new Map<string, AccountState>();
    for (const id of ids) {
      const row = byId.get(id);
      const expired = row?.isTemporary === true && row.expiresAt != null && row.expiresAt.getTime() <= now;
      const state: AccountState = { roles: row && !expired ? Object.freeze([...row.roles]) : null, loadedAt: now };
      this.accounts.set(id, state);
      states.set(id, state);
    }
    return states;
  }

  private sessionsOf(accountId: string): GuardedSession[] {
    return [...this.sessions].filter((session) => session.identity.accountId === accountId);
  }

  private apply(message: RightsMessage): void {
    if (message?.kind === 'token' && typeof message.tokenId === 'string') {
      for (const session of [...this.sessions]) {
        if (session.identity.tokenId === message.tokenId) this.end(session, sessionEnded('SESSION_REVOKED'));
      }
    } else if (message?.kind === 'account' && typeof message.accountId === 'string') {
      void this.recheckAccount(message.accountId).catch((error: unknown) =>
        this.logger.error({ err: error, accountId: message.accountId }, 'could not re-check the account\'s sessions'));
    }
  }

  private publish(message: RightsMessage): void {
    if (!this.channel) return;
    try {
      Promise.resolve(this.channel.publish(RIGHTS_CHANNEL, message)).catch((error: unknown) =>
        this.logger.error({ err: error }, 'could not publish a rights change'));
    } catch (error) {
      this.logger.error({ err: error }, 'could not publish a rights change');
    }
  }

  private end(session: GuardedSession, reason: AuthError): void {
    if (!this.sessions.delete(session)) return;
    try {
      session.end(reason);
    } catch (error) {
      this.logger.error({ err: error }, 'could not end a session');
    }
  }
}
