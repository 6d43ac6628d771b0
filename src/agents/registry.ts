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
import {
  agentTokenRecords, findActiveAgentOf, findAgent, findAgentByToken, insertAgent, markAgentRevoked, pageAgentsOfAccount,
  revokeExpiredAgentsOf,
} from '../db/agents.ts';
import { findCharacter } from '../db/characters.ts';
import type { Agent } from '../db/entities/index.ts';
import { characterNames } from '../db/social.ts';
import { session } from '../db/transaction.ts';
import { findUser } from '../db/users.ts';
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
    const agent = await findAgentByToken(session(this.context.db), identity.tokenId);
    if (agent && refuses(agent, identity)) throw new AuthError('TOKEN_INVALID', 'this agent token was revoked');
  };

  /**
   * The batch form of tokenCheck for the live-session sweep (src/auth/session-guard.ts): which of these agent
   * tokens are revoked or no longer match their agent record.
   */
  readonly revokedTokens: RevokedTokenLookup = async (tokens) => {
    const agents = await agentTokenRecords(session(this.context.db), tokens.map((t) => t.tokenId));
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
    const em = session(this.context.db);
    const user = await findUser(em, identity.accountId);
    if (!user) throw new AuthError('ACCOUNT_NOT_FOUND', 'the account of this token no longer exists');
    const character = await findCharacter(em, characterId);
    if (!character) throw new GameError('CHARACTER_NOT_FOUND', 'no such character');
    if (character.accountId !== identity.accountId || (identity.characterId !== undefined && identity.characterId !== characterId)) {
      throw new GameError('CHARACTER_NOT_OWNED', 'this character belongs to another account');
    }
    const now = new Date();
    // An expired agent no longer holds the character's agent seat.
    await revokeExpiredAgentsOf(em, characterId, now);
    const roles = user.roles.filter((role) => role !== 'admin');
    const issued = this.context.auth.tokens.sign(
      { accountId: user.id, roles, scope: 'agent', characterId },
      { ttlSeconds: ttlSeconds ?? this.context.config.agentTokenTtlSeconds, notAfter: user.isTemporary && user.expiresAt ? user.expiresAt : undefined },
    );
    const jti = (jwt.decode(issued.token) as { jti?: string } | null)?.jti;
    if (!jti) throw new Error('signed token has no jti');
    const agent = await insertAgent(em, {
      id: randomUUID(), accountId: user.id, characterId, name: name ?? `${character.name}'s agent`,
      tokenJti: jti, tokenExpiresAt: issued.expiresAt,
    });
    return { agent, characterName: character.name, token: issued.token, expiresAt: issued.expiresAt };
  }

  /** The account's agents, newest first. */
  async list(accountId: string, includeRevoked: boolean, limit: number, offset: number): Promise<{ items: NamedAgent[]; total: number }> {
    const [agents, total] = await pageAgentsOfAccount(session(this.context.db), accountId, includeRevoked, limit, offset);
    const names = await characterNames(this.context.db, [...new Set(agents.map((a) => a.characterId))]);
    return { items: agents.map((agent) => ({ agent, characterName: names.get(agent.characterId) ?? '' })), total };
  }

  /**
   * The agent if the caller owns it (its account, and its character for a character-bound token) or is it (the
   * agent's own token): AGENT_NOT_FOUND, AGENT_NOT_OWNED, AGENT_REVOKED unless `allowRevoked`.
   */
  async authorize(identity: Identity, agentId: string, options: { allowRevoked?: boolean } = {}): Promise<Agent> {
    const agent = await findAgent(session(this.context.db), agentId);
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
    return findActiveAgentOf(session(this.context.db), characterId);
  }

  /**
   * Marks the agent revoked and tells the live sessions of its token to end (SESSION_REVOKED, on any process);
   * false when it was revoked already.
   */
  async revoke(agent: Agent): Promise<boolean> {
    if (agent.revokedAt) return false;
    agent.revokedAt = new Date();
    await markAgentRevoked(session(this.context.db), agent.id, agent.revokedAt);
    this.context.auth.sessions.tokenRevoked(agent.tokenJti);
    return true;
  }

  async characterName(characterId: string): Promise<string> {
    return (await characterNames(this.context.db, [characterId])).get(characterId) ?? '';
  }
}
