/**
 * The authentication service of one running server: server tokens, the identity provider, anonymous mode,
 * attempt limits, the admin gate and the cleanup of expired temporary identities. Created by server.ts and
 * exposed to rooms and the WebSocket adapter as `gameContext().auth`; below the context, src/auth reaches the running
 * server's service through `runningAuthService()` (the functions of index.ts, the REST middleware's fallback).
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { User } from '../db/entities/user.ts';
import { session } from '../db/transaction.ts';
import type { LimiterBackend } from '../limits/store.ts';
import { MessageRateLimiter } from '../limits/message-limiter.ts';
import { loadAccountRights } from '../db/users.ts';
import type { Logger } from '../logger.ts';
import {
  assertLiveAccount,
  assertMayActAs,
  createTemporaryUser,
  deleteExpiredTemporaryUserIds,
  findOrCreateIdpUser,
  requireLiveAccount,
} from './accounts.ts';
import { AdminCodeGate } from './admin-code.ts';
import { AuthAttemptLimiter, type AttemptSource } from './attempt-limiter.ts';
import { AuthError } from './errors.ts';
import { IdpVerifier } from './idp.ts';
import { LoginReads } from './login-reads.ts';
import { effectiveRoles, PLAYER_ROLE, SessionGuard, type RightsChannel } from './session-guard.ts';
import { serverSigningSecret, TokenService, type Identity } from './tokens.ts';

/** Queries reading logins' accounts at once; the others wait their turn (verifyLogin). */
const LOGIN_READ_SLOTS = 8;

/** A freshly issued server token and whom it is for. */
export interface Session {
  token: string;
  expiresAt: Date;
  accountId: string;
  roles: readonly string[];
  characterId?: string;
  /** True for anonymous-mode identities. */
  temporary: boolean;
  /** When a temporary identity (and its characters) will be deleted. */
  accountExpiresAt?: Date;
}

export interface SocketAuthResult {
  identity: Identity;
  /** Set when no token was given in anonymous mode and a temporary identity was created for the socket. */
  session?: Session;
}

export interface AuthServiceOptions {
  config: Config;
  logger: Logger;
  db: Database;
  limits: LimiterBackend;
}

/** The service of the running server: the latest one created, until it stops. */
let running: AuthService | undefined;

/** The auth service of the running server (what gameContext().auth is); throws when no server runs. */
export function runningAuthService(): AuthService {
  if (!running) throw new Error('the game server has not been started');
  return running;
}

export class AuthService {
  readonly tokens: TokenService;
  /** Undefined in anonymous mode. */
  readonly idp: IdpVerifier | undefined;
  readonly attempts: AuthAttemptLimiter;
  readonly adminGate: AdminCodeGate;
  readonly limits: LimiterBackend;
  /** Live sessions and the rights they still hold (session-guard.ts). */
  readonly sessions: SessionGuard;
  private readonly config: Config;
  private readonly logger: Logger;
  private readonly db: Database;
  private readonly tokenChecks: Array<(identity: Identity) => Promise<void>> = [];
  /** Logins' accounts, read in batches (verifyLogin). */
  private readonly loginReads: LoginReads;
  private cleanupTimer: NodeJS.Timeout | undefined;
  private cleanupRun: Promise<unknown> | undefined;

  constructor(options: AuthServiceOptions) {
    const { config, logger } = options;
    this.config = config;
    this.logger = logger;
    this.db = options.db;
    this.limits = options.limits;
    this.loginReads = new LoginReads((accountIds) => loadAccountRights(session(this.db), accountIds), LOGIN_READ_SLOTS);

    const { secret, source } = serverSigningSecret(config);
    if (source === 'process') {
      logger.warn('JWT_SECRET is not set: tokens are signed with a random per-process secret and die with the process');
    } else if (source !== 'configured') {
      logger.info({ file: config.jwtDevSecretFile, created: source === 'created' },
        'JWT_SECRET is not set: tokens are signed with the development secret kept in this file (development only)');
    }
    this.tokens = new TokenService({
      secret,
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ttlSeconds: config.jwtTtlSeconds,
    });
    this.idp = config.idpConfigured
      ? new IdpVerifier({
        publicKeyPem: config.idpPublicKey,
        jwksUrl: config.idpJwksUrl,
        audience: config.publicIdpAppId ?? '',
        issuer: config.idpIssuer,
      })
      : undefined;
    if (!this.idp && config.isProduction) {
      logger.warn('no identity provider key (IDP_PUBLIC_KEY or IDP_JWKS_URL): anonymous mode, temporary identities only');
    }
    this.attempts = new AuthAttemptLimiter(this.limits.create({
      name: 'auth',
      points: config.rateLimitAuthPerMinute,
      windowSeconds: 60,
      blockSeconds: config.rateLimitBlockSeconds,
    }));
    this.adminGate = new AdminCodeGate(config.adminCode, this.attempts);
    this.sessions = new SessionGuard({ logger, em: () => session(this.db), checkIntervalMs: config.sessionCheckSeconds * 1000 });
    running = this;
  }

  /** True when no identity provider is configured: temporary identities instead of token exchange. */
  get anonymousMode(): boolean {
    return this.idp === undefined;
  }

  /**
   * Verifies a server access token for a game session (sockets, matchmaking): signature, algorithm, issuer,
   * audience, expiry, claims, that its account still exists, and that token and account both hold the player role.
   * The identity's roles are the token's roles the account still has. Throws AuthError: AUTH_REQUIRED,
   * TOKEN_INVALID, TOKEN_EXPIRED, ACCOUNT_NOT_FOUND or INSUFFICIENT_ROLE.
   */
  async verifyAccessToken(token: string | undefined | null): Promise<Identity> {
    return this.recheckIdentity(this.tokens.verify(token ?? ''));
  }

  /**
   * A login's token (a /ws `authenticate`, an SDK matchmaking request): checked as `recheckIdentity` does, its account
   * read in a batch with the other logins of the moment (login-reads.ts; docs/worlds.md "When the server is full").
   */
  async verifyLogin(token: string | undefined | null): Promise<Identity> {
    const identity = this.tokens.verify(token ?? '');
    return this.rightsOf(identity, assertLiveAccount(await this.loginReads.account(identity.accountId)));
  }

  /**
   * Re-checks an identity verified earlier before it starts something new (entering the world again, resuming a
   * session): not expired, account live, player role held by token and account, token checks (agent revocation).
   */
  async recheckIdentity(identity: Identity): Promise<Identity> {
    if (new Date(identity.expiresAt).getTime() <= Date.now()) throw new AuthError('TOKEN_EXPIRED', 'the access token has expired');
    return this.rightsOf(identity, await requireLiveAccount(session(this.db), identity.accountId));
  }

  /** The identity with the roles its live account still holds, once the token checks passed; needs the player role. */
  private async rightsOf(identity: Identity, user: Pick<User, 'roles'>): Promise<Identity> {
    await this.runTokenChecks(identity);
    const roles = effectiveRoles(identity.roles, user.roles);
    if (!roles.includes(PLAYER_ROLE)) throw new AuthError('INSUFFICIENT_ROLE', `playing needs the ${PLAYER_ROLE} role`);
    return roles.length === identity.roles.length ? identity : Object.freeze({ ...identity, roles: Object.freeze([...roles]) });
  }

  /**
   * Adds a check every verified token must pass on the WebSocket, matchmaking and (through `runTokenChecks`, run
   * by the REST guard) HTTP paths, e.g. that an agent token was not revoked. A check throws AuthError to refuse.
   */
  addTokenCheck(check: (identity: Identity) => Promise<void>): void {
    this.tokenChecks.push(check);
  }

  async runTokenChecks(identity: Identity): Promise<void> {
    for (const check of this.tokenChecks) await check(identity);
  }

  /**
   * The WebSocket `authenticate` step (and an `Authorization: Bearer` upgrade header): verifies the token, counting
   * an attempt for the address only when it fails. Without a token in anonymous mode it creates a temporary
   * identity (an attempt) and returns its session so the socket can hand the token to the client.
   */
  async authenticateSocket(request: { token?: string | null; address?: string }): Promise<SocketAuthResult> {
    const token = request.token;
    if (!token && this.anonymousMode) {
      await this.attempts.consume({ address: request.address }); // a new temporary identity is a login
      const session = await this.issueAnonymous();
      return { identity: this.tokens.verify(session.token), session };
    }
    // A server token presented to join counts only when it fails (see AuthAttemptLimiter.countFailure).
    return {
      identity: await this.attempts.countFailure({ address: request.address }, async () => {
        if (!token) throw new AuthError('AUTH_REQUIRED', 'an access token is required');
        return this.verifyLogin(token);
      }),
    };
  }

  /** POST /api/auth/exchange: an identity-provider token for a server token. */
  async exchange(idpToken: string | undefined, source: AttemptSource): Promise<Session> {
    await this.attempts.consume(source);
    if (!this.idp) throw new AuthError('IDP_NOT_CONFIGURED', 'no identity provider is configured; use POST /api/auth/anonymous');
    if (!idpToken) throw new AuthError('AUTH_REQUIRED', 'an identity provider token is required');
    const { subject } = await this.idp.verify(idpToken);
    const user = await findOrCreateIdpUser(session(this.db), subject);
    return this.issueFor(user);
  }

  /** POST /api/auth/anonymous: a new temporary identity (anonymous mode only). */
  async anonymous(source: AttemptSource): Promise<Session> {
    await this.attempts.consume(source);
    if (!this.anonymousMode) {
      throw new AuthError('ANONYMOUS_MODE_DISABLED', 'an identity provider is configured; exchange its token at POST /api/auth/exchange');
    }
    return this.issueAnonymous();
  }

  /** POST /api/auth/refresh: a new token with the same account, scope and character, before the old one expires. */
  async refresh(identity: Identity, source: AttemptSource): Promise<Session> {
    await this.attempts.consume({ ...source, accountId: identity.accountId });
    const user = await requireLiveAccount(session(this.db), identity.accountId);
    return this.issueFor(user, { scope: identity.scope, characterId: identity.characterId });
  }

  /** POST /api/auth/character-token: a player token bound to one character the caller owns. */
  async characterToken(identity: Identity, characterId: string, source: AttemptSource): Promise<Session> {
    await this.attempts.consume({ ...source, accountId: identity.accountId });
    const em = session(this.db);
    const user = await requireLiveAccount(em, identity.accountId);
    await assertMayActAs(em, identity, characterId);
    return this.issueFor(user, { scope: 'player', characterId });
  }

  /** A per-connection WebSocket message limiter with the configured rate (allow-all when limits are disabled). */
  createMessageLimiter(): MessageRateLimiter {
    const onReject = this.limits.onReject;
    return new MessageRateLimiter({
      perSecond: this.config.wsMessagesPerSecond, enabled: !this.config.disableRateLimit, onReject: onReject && (() => onReject('ws_messages')),
    });
  }

  /** Deletes expired temporary identities (and, by cascade, their characters); returns how many. */
  async cleanupExpiredTemporaryUsers(now = new Date()): Promise<number> {
    const deleted = await deleteExpiredTemporaryUserIds(session(this.db), now);
    if (deleted.length > 0) this.logger.info({ deleted: deleted.length }, 'expired temporary identities deleted');
    this.sessions.accountsDeleted(deleted);
    return deleted.length;
  }

  /**
   * Starts the periodic cleanup (TEMP_USER_CLEANUP_SECONDS), running it once right away, and the live-session
   * checks (`rights`: the cluster's presence, carrying rights changes between processes).
   */
  start(rights?: RightsChannel): void {
    if (this.cleanupTimer) return;
    this.sessions.start(rights);
    const run = () => {
      this.cleanupRun ??= this.cleanupExpiredTemporaryUsers()
        .catch((error: unknown) => this.logger.error({ err: error }, 'temporary identity cleanup failed'))
        .finally(() => { this.cleanupRun = undefined; });
    };
    this.cleanupTimer = setInterval(run, this.config.tempUserCleanupSeconds * 1000);
    this.cleanupTimer.unref();
    run();
  }

  /** Stops the cleanup timer, waits for a running cleanup and closes the limiter store. */
  async stop(): Promise<void> {
    if (running === this) running = undefined;
    clearInterval(this.cleanupTimer);
    this.cleanupTimer = undefined;
    await this.sessions.stop();
    await this.cleanupRun;
    await this.limits.close();
  }

  private async issueAnonymous(): Promise<Session> {
    const user = await createTemporaryUser(session(this.db), this.config.anonymousTtlSeconds);
    return this.issueFor(user);
  }

  private issueFor(user: User, options: { scope?: Identity['scope']; characterId?: string } = {}): Session {
    const roles = user.isTemporary ? user.roles.filter((role) => role !== 'admin') : user.roles;
    const accountExpiresAt = user.isTemporary && user.expiresAt ? user.expiresAt : undefined;
    const issued = this.tokens.sign(
      { accountId: user.id, roles, scope: options.scope ?? 'player', characterId: options.characterId },
      { notAfter: accountExpiresAt },
    );
    return {
      token: issued.token,
      expiresAt: issued.expiresAt,
      accountId: user.id,
      roles,
      ...(options.characterId !== undefined ? { characterId: options.characterId } : {}),
      temporary: user.isTemporary,
      ...(accountExpiresAt ? { accountExpiresAt } : {}),
    };
  }
}
