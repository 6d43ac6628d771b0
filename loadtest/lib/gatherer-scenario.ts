/**
 * `gatherers`: /ws bots at the world's level-1 resource nodes (trees, copper/tin rocks, the essence vein, net
 * fishing spots), each carrying a level-1 tool of every kind. A bot sends `player:action {action: "gather"}` and
 * lets the server roll each tick until the activity stops; on a depleted node it moves to the next node of its
 * cluster, on a full inventory it drops what it gathered and goes on. Latency is the action's acknowledgement
 * (`action:started` or the refusal); the unit of work is an item gathered (`gather:success`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { ScenarioMeter, type ScenarioSummary } from './scenario-meter.ts';
import { withScenarioServer } from './scenario-server.ts';
import { defaultJoinDeadlineSeconds, joinPhase } from './join-phase.ts';
import { seedCharacters, type SeededWalker } from './seed.ts';
import { enterWorld, type BotSocket } from './ws-bot.ts';

const INVENTORY_SLOTS = 28;
/** Nodes farther apart than this are different clusters: a bot only moves between nodes of its own. */
const CLUSTER_TILES = 16;

export interface GatherNode {
  id: string;
  resourceId: string;
  x: number;
  z: number;
}

/** Resource nodes a level-1 character can gather with a level-1 tool, and those tools (one item per tool type). */
export function levelOneNodes(data: GameData): { nodes: GatherNode[]; tools: string[] } {
  const toolByType = new Map<string, string>();
  for (const tool of data.toolsByItemId.values()) if (tool.level <= 1 && !toolByType.has(tool.type)) toolByType.set(tool.type, tool.itemId);
  const usable = new Set<string>();
  const needed = new Set<string>();
  for (const actions of Object.values(data.gathering)) {
    for (const action of actions) {
      if (action.level > 1 || action.consumes.length > 0 || !toolByType.has(action.tool)) continue;
      usable.add(action.resourceId);
      needed.add(toolByType.get(action.tool)!);
    }
  }
  const nodes = data.spawns.resources
    .map((spawn, index) => ({ id: `res-${index}`, resourceId: spawn.resourceId, x: spawn.x, z: spawn.z }))
    .filter((node) => usable.has(node.resourceId));
  return { nodes, tools: [...needed] };
}

/** Free tiles around a node, nearest first (where its gatherers are placed). */
function tilesAround(data: GameData, node: GatherNode, count: number): Array<{ x: number; z: number }> {
  const blocked = computeBlockedTiles(data);
  const tiles: Array<{ x: number; z: number }> = [];
  for (let radius = 1; radius <= 8 && tiles.length < count; radius++) {
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== radius) continue;
        const x = node.x + dx;
        const z = node.z + dz;
        if (x < 0 || z < 0 || x >= data.world.width || z >= data.world.depth || blocked.isBlocked(x, z)) continue;
        tiles.push({ x, z });
      }
    }
  }
  // More bots than free tiles nearby: several share a tile (the world allows it).
  return Array.from({ length: count }, (_, i) => tiles[i % tiles.length]);
}

interface Gatherer {
  seed: SeededWalker;
  /** Its node first, then the rest of its cluster by distance. */
  route: string[];
}

function planGatherers(data: GameData, nodes: GatherNode[], clients: number): { specs: Array<{ x: number; z: number }>; routes: string[][] } {
  const perNode = Array.from({ length: nodes.length }, (_, n) => Math.floor(clients / nodes.length) + (n < clients % nodes.length ? 1 : 0));
  const specs: Array<{ x: number; z: number }> = [];
  const routes: string[][] = [];
  nodes.forEach((node, n) => {
    const cluster = nodes
      .filter((other) => Math.max(Math.abs(other.x - node.x), Math.abs(other.z - node.z)) <= CLUSTER_TILES)
      .sort((p, q) => Math.hypot(p.x - node.x, p.z - node.z) - Math.hypot(q.x - node.x, q.z - node.z));
    for (const tile of tilesAround(data, node, perNode[n])) {
      specs.push(tile);
      routes.push(cluster.map((c) => c.id));
    }
  });
  return { specs, routes };
}

export async function runGatherers(options: { clients: number; durationSeconds: number; joinDeadlineSeconds?: number; log: (line: string) => void }): Promise<ScenarioSummary> {
  const meter = new ScenarioMeter('gatherers', 'items gathered', 'player:action gather → action:started or refusal');
  let plan: { routes: string[][]; toolCount: number } | undefined;
  return withScenarioServer({
    env: { WS_MESSAGES_PER_SECOND: '1000', SAVE_INTERVAL: '60' },
    seed: async (db, data, config, secret) => {
      const { nodes, tools } = levelOneNodes(data);
      if (nodes.length === 0) throw new Error('the world has no level-1 resource node');
      const { specs, routes } = planGatherers(data, nodes, options.clients);
      plan = { routes, toolCount: tools.length };
      options.log(`  ${nodes.length} level-1 nodes (${[...new Set(nodes.map((n) => n.resourceId))].join(', ')}); tools: ${tools.join(', ')}`);
      return seedCharacters(db, config, secret, specs.map((tile) => ({ ...tile, inventory: tools.map((itemId) => ({ itemId, quantity: 1 })) })));
    },
  }, async (server, seeds) => {
    const gatherers: Gatherer[] = seeds.map((seed, i) => ({ seed, route: plan!.routes[i] }));
    const sockets = new Map<Gatherer, BotSocket>();
    const enter = async (g: Gatherer, signal: AbortSignal) => {
      const socket = await enterWorld(server.wsUrl, g.seed);
      if (signal.aborted) return socket.close();
      socket.onEvent = (event) => {
        if (event.type === 'gather:success') {
          meter.add((event.data.items ?? []).reduce((sum: number, item: { quantity: number }) => sum + item.quantity, 0));
          meter.count('gather successes');
        }
      };
      sockets.set(g, socket);
    };
    const { joined: connected, notJoined } = await joinPhase(gatherers, {
      start: enter, name: (g) => g.seed.name, log: options.log,
      deadlineMs: (options.joinDeadlineSeconds ?? defaultJoinDeadlineSeconds(options.clients)) * 1000,
    });
    options.log(`  ${connected}/${gatherers.length} gatherers in the world; gathering for ${options.durationSeconds} s`);
    let cores = NaN;
    try {
      cores = await meter.measure(server.child.pid!, options.durationSeconds, options.log, (deadline) => Promise.all([...sockets].map(([g, socket]) => gatherLoop(socket, g, plan!.toolCount, meter, deadline))));
    } finally {
      for (const socket of sockets.values()) socket.close();
    }
    return meter.summary(gatherers.length, connected, notJoined, cores);
  });
}

async function gatherLoop(socket: BotSocket, g: Gatherer, toolCount: number, meter: ScenarioMeter, deadline: number): Promise<void> {
  let at = 0;
  // Spread the first actions over a tick so the bots do not all send in the same millisecond.
  await sleep(Math.random() * TICK_MS);
  while (performance.now() < deadline && socket.isOpen) {
    const targetId = g.route[at % g.route.length];
    socket.clearBacklog();
    const sent = performance.now();
    socket.send('player:action', { action: 'gather', targetId });
    let reason: string;
    try {
      const answer = await socket.nextOf(['action:started', 'error'], (d) => d.action === 'gather' || d.event === 'player:action');
      meter.sample(performance.now() - sent);
      meter.count('gather actions');
      if (answer.type === 'error') reason = answer.data.code;
      else {
        const remaining = Math.max(1, deadline - performance.now());
        const stopped = await socket.next('action:stopped', (d) => d.action === 'gather', remaining + 100).catch(() => undefined);
        if (!stopped) {
          socket.send('player:action', { action: 'stop' });
          return;
        }
        reason = stopped.data.reason;
      }
    } catch {
      meter.error('TIMEOUT');
      continue;
    }
    if (reason === 'NODE_DEPLETED') {
      meter.count('node depleted');
      at++;
      await sleep(TICK_MS);
    } else if (reason === 'INVENTORY_FULL') {
      meter.count('inventories emptied');
      await dropGathered(socket, toolCount, meter);
    } else if (reason !== 'STOPPED') {
      meter.error(reason);
      at++;
      await sleep(2 * TICK_MS);
    }
  }
}

/** Drops every slot after the tools (ground items expire on their own). */
async function dropGathered(socket: BotSocket, toolCount: number, meter: ScenarioMeter): Promise<void> {
  for (let slot = toolCount; slot < INVENTORY_SLOTS; slot++) {
    socket.send('inventory:drop', { slot });
    const answer = await socket.nextOf(['inventory:dropped', 'error'], (d) => d.groundItemId !== undefined || d.event === 'inventory:drop').catch(() => undefined);
    if (!answer) return meter.error('TIMEOUT');
    if (answer.type === 'error' && answer.data.code !== 'EMPTY_SLOT') meter.error(answer.data.code);
    else if (answer.type === 'inventory:dropped') meter.count('items dropped');
  }
}
