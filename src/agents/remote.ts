/**
 * The optional external AI-agent service (AGENT_API_URL, else AGENT_URL). A message sent to an agent is POSTed to
 * `{base}/api/agents/{agentId}/message` with the agent's situation; the service answers with an optional reply,
 * a line to say in chat, a new goal and/or a pause switch, which the server accepts after validating them.
 * Unreachable, timed out or a non-2xx answer → AGENT_SERVICE_UNAVAILABLE (503 with Retry-After at the REST edge);
 * an answer of the wrong shape → AGENT_SERVICE_BAD_RESPONSE (502).
 */
import { z } from 'zod';
import { GameError } from '../game/refusal.ts';
import { GoalSpec, type AvailableGoal, type Goal } from './goals.ts';

export const ServiceReply = z.object({
  reply: z.string().max(2000).optional(),
  /** A chat line the character should say. */
  say: z.string().max(200).optional(),
  /** A new goal (null clears the current one). */
  goal: GoalSpec.nullable().optional(),
  goalsPaused: z.boolean().optional(),
});
export type ServiceReply = z.infer<typeof ServiceReply>;

export interface ForwardedMessage {
  agentId: string;
  characterId: string;
  characterName: string;
  message: string;
  goal: Goal | null;
  goalsPaused: boolean;
  availableGoals: AvailableGoal[];
}

export async function forwardToAgentService(baseUrl: string, timeoutMs: number, message: ForwardedMessage): Promise<ServiceReply> {
  const url = new URL(`api/agents/${encodeURIComponent(message.agentId)}/message`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    throw new GameError('AGENT_SERVICE_UNAVAILABLE', timedOut
      ? `the AI-agent service did not answer within ${timeoutMs} ms`
      : 'the AI-agent service cannot be reached');
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new GameError('AGENT_SERVICE_UNAVAILABLE', `the AI-agent service answered ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new GameError('AGENT_SERVICE_BAD_RESPONSE', 'the AI-agent service answered with something other than JSON');
  }
  const parsed = ServiceReply.safeParse(body);
  if (!parsed.success) throw new GameError('AGENT_SERVICE_BAD_RESPONSE', 'the AI-agent service answered with an invalid shape');
  return parsed.data;
}
