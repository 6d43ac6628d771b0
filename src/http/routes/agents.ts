/**
 * AI agents (docs/api.md).
 *
 * Registry, player tokens (revoke also accepts the agent's own token):
 *   POST   /api/agent             register an agent for one of your characters → its scoped, expiring token
 *   GET    /api/agent             your agents (limit/offset; ?includeRevoked=true)
 *   GET    /api/agent/:agentId    one agent
 *   DELETE /api/agent/:agentId    revoke it: its token is refused from then on
 *
 * Goal control (the owner's player token, or the agent's own token):
 *   GET  /api/agents/:agentId/goal          current goal and progress
 *   POST /api/agents/:agentId/goal          set a goal: {goalId} from availableGoals, or {type, …}
 *   POST /api/agents/:agentId/goal/stop     cancel the path now, pause automatic goals
 *   POST /api/agents/:agentId/goal/resume   back to autonomous goal selection
 *   POST /api/agents/:agentId/message       a message to the agent (built-in commands, or the AI-agent service)
 *   GET  /api/agents/:agentId/quick-actions quick action menu
 *   GET  /api/agents/mapping/:agentId       agent → character mapping
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AgentService, GoalState } from '../../agents/service.ts';
import { GOAL_REFUSAL_CODES } from '../../agents/goal-menu.ts';
import { AvailableGoal, Goal, SetGoalBody } from '../../agents/goals.ts';
import { MAX_AGENT_NAME } from '../../agents/registry.ts';
import type { Agent } from '../../db/entities/index.ts';
import { defineRoute, IdParam, NoQuery, page, pageOf, Pagination, type ApiRegistry } from './api-kit.ts';

const AgentParams = z.object({ agentId: IdParam }).strict();

export const AgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  characterId: z.string(),
  characterName: z.string(),
  createdAt: z.string(),
  /** When the agent's token stops being accepted. */
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  expired: z.boolean(),
  goalsPaused: z.boolean(),
}).meta({ id: 'Agent' });

export const RegisterAgentBody = z.object({
  characterId: IdParam,
  name: z.string().trim().min(1).max(MAX_AGENT_NAME).optional(),
  /** Token lifetime, at most AGENT_TOKEN_TTL_SECONDS (default 24 h). */
  ttlSeconds: z.number().int().min(60).max(30 * 86_400).optional(),
}).strict();

export const RegisterAgentResponse = z.object({
  agent: AgentSchema,
  token: z.string(),
  tokenType: z.literal('Bearer'),
  expiresAt: z.string(),
  scope: z.literal('agent'),
});

export const GoalControlResponse = z.object({
  success: z.boolean(),
  agentId: z.string(),
  goal: Goal.nullable(),
  goalsPaused: z.boolean(),
  availableGoals: z.array(AvailableGoal),
  characterOnline: z.boolean(),
  /** The last goals that ended (completed, failed, stopped), newest first. */
  recentGoals: z.array(Goal),
}).meta({ id: 'GoalControlResponse' });

export const MessageBody = z.object({ message: z.string().trim().min(1).max(500) }).strict();
export const MessageResponse = GoalControlResponse.extend({
  /** `builtin` commands, or forwarded to the AI-agent service (AGENT_API_URL). */
  handledBy: z.enum(['builtin', 'service']),
  reply: z.string(),
  chat: z.object({ sent: z.boolean(), message: z.string().nullable() }),
});

const QuickAction = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['control', 'chat', 'goal']),
  method: z.literal('POST'),
  path: z.string(),
  body: z.record(z.string(), z.unknown()).nullable(),
  available: z.boolean(),
  unavailableReason: z.string().nullable(),
});
export const QuickActionsResponse = z.object({ agentId: z.string(), goalsPaused: z.boolean(), actions: z.array(QuickAction) });

export const MappingResponse = z.object({
  agentId: z.string(),
  agentName: z.string(),
  characterId: z.string(),
  characterName: z.string(),
  accountId: z.string(),
  online: z.boolean(),
  revoked: z.boolean(),
  expiresAt: z.string(),
});

const AGENT_ERRORS = { 403: ['AGENT_NOT_OWNED', 'INSUFFICIENT_SCOPE'], 404: ['AGENT_NOT_FOUND', 'AGENT_REVOKED'] };
/** The 404 codes of an unknown manifest id in a goal (goals.ts unknownReference). */
const UNKNOWN_REFERENCE_CODES = ['AREA_NOT_FOUND', 'ITEM_NOT_GATHERABLE', 'NPC_NOT_FOUND'] as const;


// ---- views: the service's records shaped as the documented responses ----

function agentView(agent: Agent, characterName: string, goalsPaused: boolean): z.infer<typeof AgentSchema> {
  return {
    id: agent.id,
    name: agent.name,
    characterId: agent.characterId,
    characterName,
    createdAt: agent.createdAt.toISOString(),
    expiresAt: agent.tokenExpiresAt.toISOString(),
    revokedAt: agent.revokedAt ? agent.revokedAt.toISOString() : null,
    expired: agent.tokenExpiresAt.getTime() <= Date.now(),
    goalsPaused,
  };
}

async function viewOf(agents: AgentService, agent: Agent): Promise<z.infer<typeof AgentSchema>> {
  return agentView(agent, await agents.characterName(agent), agents.goalsPaused(agent));
}

function goalControlView(state: GoalState): z.infer<typeof GoalControlResponse> {
  return { success: true, ...state };
}

function quickActionsView(agent: Agent, state: GoalState): z.infer<typeof QuickActionsResponse> {
  const base = `/api/agents/${agent.id}`;
  const control = state.goalsPaused
    ? { id: 'resume', label: 'Resume autonomous goals', kind: 'control' as const, method: 'POST' as const, path: `${base}/goal/resume`, body: null, available: true, unavailableReason: null }
    : { id: 'stop', label: 'Stop: cancel movement and pause goals', kind: 'control' as const, method: 'POST' as const, path: `${base}/goal/stop`, body: null, available: true, unavailableReason: null };
  const chat = { id: 'say-hello', label: 'Say hello', kind: 'chat' as const, method: 'POST' as const, path: `${base}/message`, body: { message: 'say Hello!' }, available: state.characterOnline, unavailableReason: state.characterOnline ? null : 'the character is not in the world' };
  const goals = state.availableGoals.map((goal) => ({
    id: `goal:${goal.id}`, label: goal.description, kind: 'goal' as const, method: 'POST' as const, path: `${base}/goal`,
    body: { goalId: goal.id }, available: goal.available, unavailableReason: goal.unavailableReason,
  }));
  return { agentId: agent.id, goalsPaused: state.goalsPaused, actions: [control, chat, ...goals] };
}

async function mappingView(agents: AgentService, agent: Agent): Promise<z.infer<typeof MappingResponse>> {
  return {
    agentId: agent.id,
    agentName: agent.name,
    characterId: agent.characterId,
    characterName: await agents.characterName(agent),
    accountId: agent.accountId,
    online: agents.characterOnline(agent.characterId),
    revoked: agent.revokedAt !== null && agent.revokedAt !== undefined,
    expiresAt: agent.tokenExpiresAt.toISOString(),
  };
}

export function registerAgentRoutes(router: Router, registry: ApiRegistry, agents: AgentService): void {
  defineRoute(router, registry, {
    method: 'post', path: '/api/agent', tags: ['agent'], scopes: ['player'], query: NoQuery, body: RegisterAgentBody,
    summary: 'Register an AI agent for one of your characters; answers its scoped (agent), character-bound, expiring token',
    responses: { 201: { description: 'the agent and its token (shown once)', schema: RegisterAgentResponse } },
    errors: [400, 404, 409],
    errorCodes: { 403: ['CHARACTER_NOT_OWNED', 'INSUFFICIENT_SCOPE'], 404: ['CHARACTER_NOT_FOUND'], 409: ['AGENT_ALREADY_REGISTERED'] },
  }, async ({ res, identity, body }) => {
    const { agent, characterName, token, expiresAt } = await agents.register(identity, body.characterId, body.name, body.ttlSeconds);
    res.status(201).location(`/api/agent/${agent.id}`).json({
      agent: agentView(agent, characterName, agents.goalsPaused(agent)), token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString(), scope: 'agent',
    } satisfies z.infer<typeof RegisterAgentResponse>);
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/agent', tags: ['agent'], scopes: ['player'],
    query: Pagination.extend({ includeRevoked: z.enum(['true', 'false']).optional() }).strict(),
    summary: 'Your agents, newest first (limit/offset pagination; revoked ones with includeRevoked=true)',
    responses: { 200: { description: 'a page of agents', schema: pageOf(AgentSchema) } },
    errors: [400],
  }, async ({ res, identity, query }) => {
    const { items, total } = await agents.list(identity.accountId, query.includeRevoked === 'true', query.limit, query.offset);
    res.json(page(items.map(({ agent, characterName }) => agentView(agent, characterName, agents.goalsPaused(agent))), total, query.limit, query.offset));
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/agent/:agentId', tags: ['agent'], params: AgentParams, query: NoQuery,
    summary: 'One agent (its owner, or the agent itself)',
    responses: { 200: { description: 'the agent', schema: AgentSchema } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    res.json(await viewOf(agents, await agents.authorize(identity, params.agentId, { allowRevoked: true })));
  });

  defineRoute(router, registry, {
    method: 'delete', path: '/api/agent/:agentId', tags: ['agent'], params: AgentParams, query: NoQuery,
    summary: 'Revoke an agent: its token is refused from now on, its goal stops (idempotent)',
    responses: { 200: { description: 'the revoked agent', schema: AgentSchema } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    const agent = await agents.authorize(identity, params.agentId, { allowRevoked: true });
    await agents.revoke(agent);
    res.json(await viewOf(agents, agent));
  });

  // ---- goal control ----

  defineRoute(router, registry, {
    method: 'get', path: '/api/agents/:agentId/goal', tags: ['agent-goals'], params: AgentParams, query: NoQuery,
    summary: 'The agent\'s current goal and progress',
    responses: { 200: { description: 'goal control state', schema: GoalControlResponse } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    res.json(goalControlView(await agents.state(await agents.authorize(identity, params.agentId))));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/agents/:agentId/goal', tags: ['agent-goals'], params: AgentParams, query: NoQuery, body: SetGoalBody,
    summary: 'Set a goal: {goalId} from availableGoals, or described by type and target; while paused it waits for resume',
    responses: { 200: { description: 'goal control state', schema: GoalControlResponse } },
    errors: [400, 404, 409],
    errorCodes: { ...AGENT_ERRORS, 404: [...AGENT_ERRORS[404], 'GOAL_NOT_FOUND', ...UNKNOWN_REFERENCE_CODES], 409: [...GOAL_REFUSAL_CODES] },
  }, async ({ res, identity, params, body }) => {
    res.json(goalControlView(await agents.setGoal(await agents.authorize(identity, params.agentId), body)));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/agents/:agentId/goal/stop', tags: ['agent-goals'], params: AgentParams, query: NoQuery,
    summary: 'Stop: the movement path is cancelled at once, automatic goal selection paused, the agent idles; chat still works',
    responses: { 200: { description: 'goal control state, goalsPaused true', schema: GoalControlResponse } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    res.json(goalControlView(await agents.stop(await agents.authorize(identity, params.agentId))));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/agents/:agentId/goal/resume', tags: ['agent-goals'], params: AgentParams, query: NoQuery,
    summary: 'Resume autonomous goal selection',
    responses: { 200: { description: 'goal control state, goalsPaused false', schema: GoalControlResponse } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    res.json(goalControlView(await agents.resume(await agents.authorize(identity, params.agentId))));
  });

  defineRoute(router, registry, {
    method: 'post', path: '/api/agents/:agentId/message', tags: ['agent-goals'], params: AgentParams, query: NoQuery, body: MessageBody,
    summary: 'Send the agent a message. Built in: "say <text>", "/<command>", "travel <area>", "train <skill> [level]", "kill [count] <npc>", "bank", "stop", "resume". With AGENT_API_URL set it is forwarded to the AI-agent service',
    responses: { 200: { description: 'what the agent did', schema: MessageResponse } },
    errors: [400, 404, 409, 502, 503],
    errorCodes: { ...AGENT_ERRORS, 409: ['CHARACTER_OFFLINE', ...GOAL_REFUSAL_CODES], 502: ['AGENT_SERVICE_BAD_RESPONSE'], 503: ['AGENT_SERVICE_UNAVAILABLE'] },
  }, async ({ res, identity, params, body }) => {
    const { handledBy, reply, chat, state } = await agents.message(await agents.authorize(identity, params.agentId), body.message);
    res.json({ handledBy, reply, chat, ...goalControlView(state) } satisfies z.infer<typeof MessageResponse>);
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/agents/:agentId/quick-actions', tags: ['agent-goals'], params: AgentParams, query: NoQuery,
    summary: 'Quick action menu: ready-made requests for the controls, chat and every goal',
    responses: { 200: { description: 'the actions', schema: QuickActionsResponse } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    const agent = await agents.authorize(identity, params.agentId);
    res.json(quickActionsView(agent, await agents.state(agent)));
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/agents/mapping/:agentId', tags: ['agent-goals'], params: AgentParams, query: NoQuery,
    summary: 'Which character (and account) an agent plays',
    responses: { 200: { description: 'the mapping', schema: MappingResponse } },
    errors: [400, 404], errorCodes: AGENT_ERRORS,
  }, async ({ res, identity, params }) => {
    res.json(await mappingView(agents, await agents.authorize(identity, params.agentId, { allowRevoked: true })));
  });
}
