/** The agent service of each running server, keyed by its GameContext (the world feature finds it here). */
import type { GameContext } from '../context.ts';
import { AgentService } from './service.ts';

const services = new WeakMap<GameContext, AgentService>();

/** Creates the server's agent service and installs its token checks (revoked agent tokens are refused, live sessions end). */
export function createAgentService(context: GameContext): AgentService {
  const service = new AgentService(context);
  services.set(context, service);
  context.auth.addTokenCheck(service.tokenCheck);
  context.auth.sessions.addRevocationSource(service.revokedTokens);
  return service;
}

export function agentServiceOf(context: GameContext): AgentService | undefined {
  return services.get(context);
}
