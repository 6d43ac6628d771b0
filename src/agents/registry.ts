/**
 * Which agents exist: registration (a scoped, character-bound, expiring token whose jti is recorded; one agent per
 * character at a time), the owner's list, who may steer an agent, revocation (the token is refused everywhere from
 * then on), and the token checks the AuthService runs. Refusals are GameErrors; the REST edge
 * (src/http/routes/agents.ts) gives them their statuses.
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AuthError } from '../auth/errors.ts';
import type { RevokedTokenLookup } from '../auth/session-guard.ts';
import type { Identity } from '../auth/tokens.ts';
import type { GameContext } from '../context.ts';
import { Agent, Character, User } from '../db/entities/index.ts';
import { GameError } from '../game/refusal.ts';

export const MAX_AGENT_NAME = 40;

/** An agent with the name of the character it plays. */
export interface NamedAgent {
  agent: Agent;
  characterName: string;
}

export interface RegisteredAgent extends NamedAgent {
  /** The agent's token (shown once). */
  token: string;
  expiresAt: Date;
}

/** Whether the agent record no longer lets its token through (revoked, or naming another account or character). */
function refuses(agent: Pick<Agent, 'revokedAt' | 'accountId' | 'characterId'>, token: { accountId: string; characterId?: string }): boolean {
  return Boolean(agent.revokedAt) || agent.characterId !== token.characterId || agent.accountId !== token.accountId;
}

export class AgentRegistry {
  private readonly context: GameContext;

  constructor(context: GameContext) {
    this.context = context;
  }

  /**
   * The token check installed in the AuthService: refuses the token of a revoked agent (and one whose record names
   * another account or character). Agent-scoped tokens the server signed for other purposes have no agent record
   * and are left to the scope checks; such a token can still not steer any agent (`authorize` matches the jti).
   */
  readonly tokenCheck = async (identity: Identity): Promise<void> => {
    if (identity.scope !== 'agent' || !identity.tokenId) return;
    const agent = await this.context.db.em.fork().findOne(Agent, { tokenJti: identity.tokenId });
    if (agent && refuses(agent, identity)) throw new AuthError('TOKEN_INVALID', 'this agent token was revoked');
  };

  /**
   * The batch form of tokenCheck for the live-session sweep (src/auth/session-guard.ts): which of these agent
   * tokens are revoked or no longer match their agent record.
   */
  readonly revokedTokens: RevokedTokenLookup = async (tokens) => {
    const agents = await this.context.db.em.fork().find(Agent, { tokenJti: { $in: tokens.map((t) => t.tokenId) } },
      { fields: ['tokenJti', 'revokedAt', 'accountId', 'characterId'] });
    const byJti = new Map(agents.map((agent) => [agent.tokenJti, agent]));
    const revoked = new Set<string>();
    for (const token of tokens) {
      const agent = byJti.get(token.tokenId);
      if (agent && refuses(agent, token)) revoked.add(token.tokenId);
    }
    return revoked;
  };

  /**
   * Registers an agent for one of the caller's characters and signs its token: CHARACTER_NOT_FOUND,
   * CHARACTER_NOT_OWNED, AGENT_ALREADY_REGISTERED (revoke the character's agent first; an expired one frees the seat).
   */
  async register(identity: Identity, characterId: string, name: string | undefined, ttlSeconds: number | undefined): Promise<RegisteredAgent> {
    const em = this.context.db.em.fork();
    const user = await em.findOne(User, { id: identity.accountId });
    if (!user) throw new AuthError('ACCOUNT_NOT_FOUND', 'the account of this token no longer exists');
    const character = await em.findOne(Character, { id: characterId });
    if (!character) throw new GameError('CHARACTER_NOT_FOUND', 'no such character');
    if (character.accountId !== identity.accountId || (identity.characterId !== undefined && identity.characterId !== characterId)) {
      throw new GameError('CHARACTER_NOT_OWNED', 'this character belongs to another account');
    }
    const now = new Date();
    // An expired agent no longer holds the character's agent seat.
    await em.nativeUpdate(Agent, { characterId, revokedAt: null, tokenExpiresAt: { $lte: now } }, { revokedAt: now });
    const roles = user.roles.filter((role) => role !== 'admin');
    const issued = this.context.auth.tokens.sign(
      { accountId: user.id, roles, scope: 'agent', characterId },
      { ttlSeconds: ttlSeconds ?? this.context.config.agentTokenTtlSeconds, notAfter: user.isTemporary && user.expiresAt ? user.expiresAt : undefined },
    );
    const jti = (jwt.decode(issued.token) as { jti?: string } | null)?.jti;
    if (!jti) throw new Error('signed token has no jti');
    const agent = em.create(Agent, {
      id: randomUUID(), accountId: user.id, characterId, name: name ?? `${character.name}'s agent`,
      tokenJti: jti, tokenExpiresAt: issued.expiresAt, goalsPaused: false, goal: null,
    });
    try {
      await em.flush();
    } catch (error) {
      if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) {
        throw new GameError('AGENT_ALREADY_REGISTERED', 'this character already has an agent; revoke it first');
      }
      throw error;
    }
    return { agent, characterName: character.name, token: issued.token, expiresAt: issued.expiresAt };
  }

  /** The account's agents, newest first. */
  async list(accountId: string, includeRevoked: boolean, limit: number, offset: number): Promise<{ items: NamedAgent[]; total: number }> {
    const em = this.context.db.em.fork();
    const where = includeRevoked ? { accountId } : { accountId, revokedAt: null };
    const [agents, total] = await em.findAndCount(Agent, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit, offset });
    const names = await this.characterNames(agents.map((a) => a.characterId));
    return { items: agents.map((agent) => ({ agent, characterName: names.get(agent.characterId) ?? '' })), total };
  }

  /**
   * The agent if the caller owns it (its account, and its character for a character-bound token) or is it (the
   * agent's own token): AGENT_NOT_FOUND, AGENT_NOT_OWNED, AGENT_REVOKED unless `allowRevoked`.
   */
  async authorize(identity: Identity, agentId: string, options: { allowRevoked?: boolean } = {}): Promise<Agent> {
    const agent = await this.context.db.em.fork().findOne(Agent, { id: agentId });
    if (!agent) throw new GameError('AGENT_NOT_FOUND', 'no such agent');
    const owns = identity.scope === 'agent'
      ? identity.tokenId === agent.tokenJti
      : agent.accountId === identity.accountId && (identity.characterId === undefined || identity.characterId === agent.characterId);
    if (!owns) throw new GameError('AGENT_NOT_OWNED', 'this agent belongs to another account or token');
    if (agent.revokedAt && !options.allowRevoked) throw new GameError('AGENT_REVOKED', 'this agent was revoked');
    return agent;
  }

  /** The character's agent that is not revoked, if any. */
  activeAgentOf(characterId: string): Promise<Agent | null> {
    return this.context.db.em.fork().findOne(Agent, { characterId, revokedAt: null });
  }

  /**
   * Marks the agent revoked and tells the live sessions of its token to end (SESSION_REVOKED, on any process);
   * false when it was revoked already.
   */
  async revoke(agent: Agent): Promise<boolean> {
    if (agent.revokedAt) return false;
    agent.revokedAt = new Date();
    await this.context.db.em.fork().nativeUpdate(Agent, { id: agent.id }, { revokedAt: agent.revokedAt });
    this.context.auth.sessions.tokenRevoked(agent.tokenJti);
    return true;
  }

  async characterName(characterId: string): Promise<string> {
    return (await this.characterNames([characterId])).get(characterId) ?? '';
  }

  private async characterNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.context.db.em.fork().find(Character, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'name'] });
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
