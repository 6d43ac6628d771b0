/**
 * The baseline for the walker benchmark: a bare Colyseus server with the same state shape, the same area of
 * interest (StateView filled from the same spatial grid) and the same bots, but none of the game: no
 * authentication, database, path-finding, validation or /ws adapter. A move is applied at once.
 * Run: node loadtest/baseline/bare-server.ts <port>
 */
import http from 'node:http';
import { matchMaker, Room, Server, type Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { InterestSet, SpatialGrid, type TrackedEntity } from '../../rooms/world/interest.ts';
import { PlayerState, WorldState } from '../../schema/world-state.ts';

const RADIUS = 16;

class BarePlayer implements TrackedEntity {
  interestMark = 0;
  tickChange: object | undefined = undefined;
  readonly kind = 'player' as const;
  readonly id: string;
  readonly state = new PlayerState();
  readonly interest = new InterestSet();
  readonly client: Client;

  constructor(id: string, x: number, z: number, client: Client) {
    this.id = id;
    this.client = client;
    Object.assign(this.state, { id, name: id.slice(0, 8), x, z, running: false, health: 100, maxHealth: 100, combatLevel: 3, appearance: '', action: 'idle' });
  }

  get x(): number { return this.state.x; }
  get z(): number { return this.state.z; }
  snapshot(): Record<string, unknown> { return { id: this.id, x: this.x, z: this.z }; }
  delta(): Record<string, unknown> { return this.snapshot(); }
}

class BareWorldRoom extends Room<{ state: WorldState }> {
  override maxClients = 5000;
  private readonly grid = new SpatialGrid(RADIUS);
  private readonly players = new Map<string, BarePlayer>();

  override onCreate(): void {
    this.state = new WorldState();
    this.state.tick = 0;
    this.onMessage('player:move', (client, target: { x: number; z: number }) => {
      const player = this.players.get(client.sessionId);
      if (!player) return;
      const fromX = player.x;
      const fromZ = player.z;
      player.state.x = target.x;
      player.state.z = target.z;
      this.grid.move(player, fromX, fromZ);
      client.send('player:path', { x: target.x, z: target.z, path: [target], running: false });
    });
    this.onMessage('*', () => {});
    this.setSimulationInterval(() => {
      this.state.tick++;
      for (const player of this.players.values()) {
        const diff = player.interest.update(this.grid, player.id, player.x, player.z, RADIUS);
        for (const entity of diff.added) player.client.view!.add((entity as unknown as BarePlayer).state);
        for (const entity of diff.removed) player.client.view!.remove((entity as unknown as BarePlayer).state);
      }
    }, 600);
  }

  override onJoin(client: Client, options: { characterId: string; x: number; z: number }): void {
    const player = new BarePlayer(options.characterId, options.x, options.z, client);
    client.view = new StateView();
    this.players.set(client.sessionId, player);
    this.state.players.set(player.id, player.state);
    this.grid.insert(player);
  }

  override onLeave(client: Client): void {
    const player = this.players.get(client.sessionId);
    if (!player) return;
    this.players.delete(client.sessionId);
    this.state.players.delete(player.id);
    this.grid.remove(player);
  }
}

const port = Number(process.argv[2] ?? 5600);
const registry = new Registry();
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
const httpServer = http.createServer();
const server = new Server({
  transport: new WebSocketTransport({ server: httpServer }),
  greet: false,
  express: (app) => {
    app.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
    app.get('/metrics', async (_req, res) => { res.type(registry.contentType).send(await registry.metrics()); });
  },
});
server.define('world', BareWorldRoom);
await server.listen(port, '127.0.0.1');
// Like the game, one world room exists from the start; bots join it.
await matchMaker.createRoom('world', {});
process.on('SIGTERM', () => process.exit(0));
