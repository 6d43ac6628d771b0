/**
 * `rest`: pollers reading the REST API the way an AI agent does. Each client owns a seeded character, registers an
 * agent for it (POST /api/agent) and then, every `intervalMs` (0: back to back), reads with the agent's bearer token:
 * GET /api/v1/player, /api/v1/world, /api/characters/:id/skills, /api/characters/:id/position and
 * /api/agents/:agentId/goal. Latency is request → response body read, per route and overall; any status but 200 is
 * an error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ScenarioMeter, type ScenarioSummary } from './scenario-meter.ts';
import { withScenarioServer } from './scenario-server.ts';
import { defaultJoinDeadlineSeconds, joinPhase } from './join-phase.ts';
import { freeTiles, seedCharacters, type SeededWalker } from './seed.ts';

interface Poller {
  seed: SeededWalker;
  agentId?: string;
  agentToken?: string;
}

export function pollRoutes(characterId: string, agentId: string): Array<{ label: string; path: string }> {
  return [
    { label: 'GET /api/v1/player', path: '/api/v1/player' },
    { label: 'GET /api/v1/world', path: '/api/v1/world' },
    { label: 'GET /api/characters/:id/skills', path: `/api/characters/${characterId}/skills` },
    { label: 'GET /api/characters/:id/position', path: `/api/characters/${characterId}/position` },
    { label: 'GET /api/agents/:agentId/goal', path: `/api/agents/${agentId}/goal` },
  ];
}

export async function runRestPollers(options: { clients: number; durationSeconds: number; intervalMs: number; joinDeadlineSeconds?: number; log: (line: string) => void }): Promise<ScenarioSummary> {
  const meter = new ScenarioMeter('rest', 'requests', 'request → response read');
  return withScenarioServer({
    seed: (db, data, config, secret) => seedCharacters(db, config, secret, freeTiles(data, options.clients, 11)),
  }, async (server, seeds) => {
    const pollers: Poller[] = seeds.map((seed) => ({ seed }));
    const register = async (poller: Poller, signal: AbortSignal) => {
      const response = await fetch(`${server.baseUrl}/api/agent`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${poller.seed.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ characterId: poller.seed.characterId, name: 'load poller' }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await response.json() as { agent?: { id: string }; token?: string };
      if (response.status !== 201 || !body.agent || !body.token) throw new Error(`agent registration: ${response.status} ${JSON.stringify(body)}`);
      if (signal.aborted) return;
      poller.agentId = body.agent.id;
      poller.agentToken = body.token;
    };
    const { joined: registered, notJoined } = await joinPhase(pollers, {
      start: register, name: (poller) => poller.seed.name, log: options.log,
      deadlineMs: (options.joinDeadlineSeconds ?? defaultJoinDeadlineSeconds(options.clients)) * 1000,
    });
    options.log(`  ${registered}/${pollers.length} agents registered; polling every ${options.intervalMs} ms for ${options.durationSeconds} s`);
    const cores = await meter.measure(server.child.pid!, options.durationSeconds, options.log, (deadline) => Promise.all(pollers.filter((p) => p.agentToken).map(async (poller) => {
      const headers = { Authorization: `Bearer ${poller.agentToken}` };
      const routes = pollRoutes(poller.seed.characterId, poller.agentId!);
      // Spread the clients over one interval.
      await sleep(Math.random() * options.intervalMs);
      while (performance.now() < deadline) {
        const round = performance.now();
        for (const route of routes) {
          const started = performance.now();
          try {
            const response = await fetch(`${server.baseUrl}${route.path}`, { headers, signal: AbortSignal.timeout(10_000) });
            await response.arrayBuffer();
            if (response.status === 200) meter.done(performance.now() - started, route.label);
            else meter.error(`HTTP_${response.status}`);
          } catch (error) {
            meter.error((error as Error).name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK');
          }
        }
        const wait = options.intervalMs - (performance.now() - round);
        if (wait > 0) await sleep(Math.min(wait, Math.max(0, deadline - performance.now())));
      }
    })));
    return meter.summary(pollers.length, registered, notJoined, cores);
  });
}
