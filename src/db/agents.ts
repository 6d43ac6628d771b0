/**
 * The `agents` rows (src/agents/registry.ts, goal-control.ts): registration (one agent per character at a time,
 * by a partial unique index; an expired agent frees the seat), the lookups by id, token and character, the owner's
 * list, revocation, and the stored goal state that survives a restart.
 */
import { Agent } from './entities/index.ts';
import { GameError } from '../game/refusal.ts';
import type { Transaction } from './transaction.ts';

/** The agent, or null. */
export function findAgent(tx: Transaction, agentId: string): Promise<Agent | null> {
  return tx.findOne(Agent, { id: agentId });
}

/** The agent whose token has this jti, or null. */
export function findAgentByToken(tx: Transaction, tokenJti: string): Promise<Agent | null> {
  return tx.findOne(Agent, { tokenJti });
}

/** The character's agent that is not revoked, or null. */
export function findActiveAgentOf(tx: Transaction, characterId: string): Promise<Agent | null> {
  return tx.findOne(Agent, { characterId, revokedAt: null });
}

export type AgentTokenRecord = Pick<Agent, 'tokenJti' | 'revokedAt' | 'accountId' | 'characterId'>;

/** What the token checks need of the agents of these token ids (a token without an agent is absent). */
export function agentTokenRecords(tx: Transaction, tokenJtis: string[]): Promise<AgentTokenRecord[]> {
  return tx.find(Agent, { tokenJti: { $in: tokenJtis } }, { fields: ['tokenJti', 'revokedAt', 'accountId', 'characterId'] });
}

/** Marks the character's agents whose token expired by `now` revoked: an expired agent no longer holds the seat. */
export async function revokeExpiredAgentsOf(tx: Transaction, characterId: string, now: Date): Promise<void> {
  await tx.nativeUpdate(Agent, { characterId, revokedAt: null, tokenExpiresAt: { $lte: now } }, { revokedAt: now });
}

export interface NewAgent {
  id: string;
  accountId: string;
  characterId: string;
  name: string;
  tokenJti: string;
  tokenExpiresAt: Date;
}

/** Inserts a registered agent (goals running, none set): AGENT_ALREADY_REGISTERED when the character has one. */
export async function insertAgent(tx: Transaction, agent: NewAgent): Promise<Agent> {
  const row = tx.create(Agent, { ...agent, goalsPaused: false, goal: null });
  try {
    await tx.flush();
  } catch (error) {
    if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) {
      throw new GameError('AGENT_ALREADY_REGISTERED', 'this character already has an agent; revoke it first');
    }
    throw error;
  }
  return row;
}

/** One page of the account's agents (revoked ones too when asked), newest first, and how many there are. */
export function pageAgentsOfAccount(tx: Transaction, accountId: string, includeRevoked: boolean, limit: number, offset: number): Promise<[Agent[], number]> {
  const where = includeRevoked ? { accountId } : { accountId, revokedAt: null };
  return tx.findAndCount(Agent, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit, offset });
}

export async function markAgentRevoked(tx: Transaction, agentId: string, revokedAt: Date): Promise<void> {
  await tx.nativeUpdate(Agent, { id: agentId }, { revokedAt });
}

/** Stores the agent's pause and its running goal (null: none). */
export async function saveAgentGoal(tx: Transaction, agentId: string, goalsPaused: boolean, goal: Record<string, unknown> | null): Promise<void> {
  await tx.nativeUpdate(Agent, { id: agentId }, { goalsPaused, goal });
}
