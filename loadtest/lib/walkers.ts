/**
 * Walking bots: each enters the world with a seeded character, requests a move to a free neighbouring tile
 * every 600 ms (one per tick) and now and then says something. Both kinds record the move → acknowledgement
 * latency (player:move until its player:path); JSON bots also record how long a world:update took to arrive
 * after its tick began (`sentAt`).
 */
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import { pack } from 'msgpackr';
import WebSocket from 'ws';
import type { WalkGrid } from '../../src/game/pathfinding.ts';
import { TICK_MS } from '../../src/game/ticks.ts';
import { changesOfSet, decodeMove, movesOf, type CompactSetEntry, type UpdateEncoding } from '../../rooms/world/update-frames.ts';
import type { SeededWalker } from './seed.ts';
import { Samples } from './stats.ts';

const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

/** One world:update in this many is also packed with msgpack, to size the binary alternative to the JSON text. */
const PACK_SAMPLE_EVERY = 50;

export interface WalkerStats {
  ack: Samples;
  delivery: Samples;
  errors: number;
  movesSent: number;
  updatesReceived: number;
  /** Sampled world:update frames: their bytes as received, and the same data packed with msgpack. */
  sampledTextBytes: number;
  sampledPackedBytes: number;
}

export function newWalkerStats(): WalkerStats {
  return { ack: new Samples(), delivery: new Samples(), errors: 0, movesSent: 0, updatesReceived: 0, sampledTextBytes: 0, sampledPackedBytes: 0 };
}

/** The counters at the start of a measured window (subtract them at its end). */
export type WindowStart = Pick<WalkerStats, 'movesSent' | 'errors' | 'updatesReceived'>;

/** Starts a measured window: forgets the warm-up's samples and answers the counters as they stand. */
export function startWindow(stats: WalkerStats): WindowStart {
  stats.ack.reset();
  stats.delivery.reset();
  stats.sampledTextBytes = 0;
  stats.sampledPackedBytes = 0;
  return { movesSent: stats.movesSent, errors: stats.errors, updatesReceived: stats.updatesReceived };
}

export interface Walker {
  readonly kind: 'json' | 'sdk';
  /** Its character's name. */
  readonly name: string;
  start(): Promise<void>;
  stop(): void;
}

/**
 * Starts a walker in a join phase (lib/join-phase.ts): one the phase gives up (`signal` aborts) is stopped at once,
 * and again if its join completes later, so it never walks in a run that did not count it.
 */
export async function startWithin(walker: Walker, signal: AbortSignal): Promise<void> {
  const giveUp = () => walker.stop();
  signal.addEventListener('abort', giveUp, { once: true });
  try {
    await walker.start();
  } finally {
    signal.removeEventListener('abort', giveUp);
  }
  if (signal.aborted) walker.stop();
}

/** What a bot reads of a world:update's data (entities are read field by field). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type UpdateData = { added?: Array<Record<string, any>>; changed?: Array<Record<string, any>>; moved?: string; set?: CompactSetEntry[] };

abstract class BaseWalker implements Walker {
  abstract readonly kind: 'json' | 'sdk';
  protected readonly seed: SeededWalker;
  protected readonly grid: WalkGrid;
  protected readonly stats: WalkerStats;
  protected x: number;
  protected z: number;
  protected pendingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private moves = 0;

  constructor(seed: SeededWalker, grid: WalkGrid, stats: WalkerStats) {
    this.seed = seed;
    this.grid = grid;
    this.stats = stats;
    this.x = seed.x;
    this.z = seed.z;
  }

  abstract start(): Promise<void>;

  get name(): string {
    return this.seed.name;
  }

  /** The bot's own handle in compact frames (from the snapshot that added it). */
  protected handle: number | undefined;

  /** Keeps the bot's own position from the update (a change carries only the fields that changed). */
  protected follow(update: UpdateData): void {
    const me = this.seed.characterId;
    for (const entity of update.added ?? []) {
      if (entity.id !== me) continue;
      this.handle = entity.n;
      this.x = entity.x;
      this.z = entity.z;
    }
    for (const code of movesOf(update.moved ?? '')) {
      const move = decodeMove(code);
      if (move.handle !== this.handle) continue;
      this.x += move.dx;
      this.z += move.dz;
    }
    for (const entity of [...(update.changed ?? []), ...changesOfSet(update.set ?? [])]) {
      if (entity.id !== me && (entity.n === undefined || entity.n !== this.handle)) continue;
      if (entity.x !== undefined) this.x = entity.x;
      if (entity.z !== undefined) this.z = entity.z;
    }
  }

  /** One world:update's data: counted, its delivery latency recorded, the bot's position followed. */
  protected received(update: UpdateData & { sentAt: number }): void {
    this.stats.updatesReceived++;
    this.stats.delivery.add(Date.now() - update.sentAt);
    this.follow(update);
  }
  protected abstract sendEvent(type: string, data: unknown): void;
  abstract stop(): void;

  /** Starts walking after a random phase so the bots do not all send in the same millisecond. */
  protected beginWalking(): void {
    setTimeout(() => {
      this.timer = setInterval(() => this.step(), TICK_MS);
    }, Math.random() * TICK_MS).unref();
  }

  protected stopWalking(): void {
    clearInterval(this.timer);
  }

  protected acknowledged(): void {
    if (this.pendingSince !== undefined) {
      this.stats.ack.add(performance.now() - this.pendingSince);
      this.pendingSince = undefined;
    }
  }

  private step(): void {
    const options = NEIGHBOURS.map(([dx, dz]) => ({ x: this.x + dx, z: this.z + dz })).filter((t) => !this.grid.isBlocked(t.x, t.z));
    if (options.length === 0) return;
    const target = options[Math.floor(Math.random() * options.length)];
    this.pendingSince = performance.now();
    this.stats.movesSent++;
    this.sendEvent('player:move', target);
    if (++this.moves % 50 === 0) this.sendEvent('player:chat', { message: `walking ${this.moves}` });
  }
}

export class JsonWalker extends BaseWalker {
  readonly kind = 'json' as const;
  private socket: WebSocket | undefined;
  private readonly url: string;
  private readonly updates: UpdateEncoding;

  constructor(url: string, seed: SeededWalker, grid: WalkGrid, stats: WalkerStats, updates: UpdateEncoding = 'json') {
    super(seed, grid, stats);
    this.url = url;
    this.updates = updates;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.url}/ws`, { perMessageDeflate: false });
      this.socket = socket;
      const entry = { token: this.seed.token, characterId: this.seed.characterId, ...(this.updates === 'json' ? {} : { updates: this.updates }) };
      socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate', data: entry })));
      socket.on('message', (raw) => {
        const text = raw.toString();
        // Peek at the type without parsing every frame twice.
        if (text.startsWith('{"type":"world:update"')) {
          const update = JSON.parse(text).data;
          if ((this.stats.updatesReceived + 1) % PACK_SAMPLE_EVERY === 0) {
            this.stats.sampledTextBytes += Buffer.byteLength(text);
            this.stats.sampledPackedBytes += pack({ type: 'world:update', data: update }).length;
          }
          this.received(update);
          return;
        }
        const event = JSON.parse(text);
        if (event.type === 'player:path') this.acknowledged();
        else if (event.type === 'world:joined') {
          this.beginWalking();
          resolve();
        } else if (event.type === 'error') {
          this.stats.errors++;
          if (event.data.event === 'world:enter' || event.data.event === 'authenticate') reject(new Error(event.data.code));
        } else if (event.type === 'authResult' && !event.data.success) reject(new Error(event.data.error.code));
      });
      socket.on('error', reject);
    });
  }

  protected sendEvent(type: string, data: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type, data }));
  }

  /** Leaves the world as a player logging out does (`world:leave`: its seat is freed, none held); resolves on `world:left`. */
  leave(timeoutMs = 10_000): Promise<boolean> {
    this.stopWalking();
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const onMessage = (raw: WebSocket.RawData) => {
        if (raw.toString().startsWith('{"type":"world:left"')) finish(true);
      };
      const finish = (left: boolean) => {
        clearTimeout(timer);
        socket.off('message', onMessage);
        resolve(left);
      };
      socket.on('message', onMessage);
      this.sendEvent('world:leave', {});
    });
  }

  stop(): void {
    this.stopWalking();
    this.socket?.close();
  }
}

export class SdkWalker extends BaseWalker {
  readonly kind = 'sdk' as const;
  private room: SdkRoom | undefined;
  private readonly baseUrl: string;
  /** `world:update` room messages instead of schema sync (docs/worlds.md); undefined: schema sync. */
  private readonly updates: UpdateEncoding | undefined;
  /**
   * False: the bot receives its state patches but does not decode them, and follows its own position from its acks
   * (`player:path`). The server does the same work for it; the load generator does a tenth of a decoding bot's.
   */
  private readonly decodes: boolean;

  constructor(baseUrl: string, seed: SeededWalker, grid: WalkGrid, stats: WalkerStats, updates?: UpdateEncoding, decodes = true) {
    super(seed, grid, stats);
    this.baseUrl = baseUrl;
    this.updates = updates;
    this.decodes = decodes;
  }

  async start(): Promise<void> {
    const client = new SdkClient(this.baseUrl, { headers: { Authorization: `Bearer ${this.seed.token}` } });
    // x and z are for the bare baseline room, which takes the position from the join; the game ignores them.
    const options = { characterId: this.seed.characterId, x: this.seed.x, z: this.seed.z, ...(this.updates ? { updates: this.updates } : {}) };
    const room = await client.join('world', options);
    this.room = room;
    room.onMessage('player:path', (path: { x: number; z: number; path?: Array<{ x: number; z: number }> }) => {
      this.acknowledged();
      if (this.decodes) return;
      const to = path.path?.at(-1) ?? path;
      this.x = to.x;
      this.z = to.z;
    });
    room.onMessage('error', () => this.stats.errors++);
    // A bot that does not decode its state learns a position it did not walk to (a respawn) from its player:sync.
    if (!this.decodes) room.onMessage('player:sync', (sync: { x: number; z: number }) => {
      this.x = sync.x;
      this.z = sync.z;
    });
    room.onMessage('*', () => {});
    if (this.updates) {
      room.onMessage('world:update', (text: string) => this.received(JSON.parse(text)));
      this.beginWalking();
      return;
    }
    if (!this.decodes) {
      // The SDK's own patch step (Room.ts: ROOM_STATE_PATCH → serializer.patch), skipped: the bytes are read off the
      // socket and dropped.
      (room as unknown as { serializer: { patch(): void } }).serializer.patch = () => {};
    }
    room.onStateChange(() => {
      this.stats.updatesReceived++;
      if (!this.decodes) return;
      const me = room.state.players?.get(this.seed.characterId);
      if (me) {
        this.x = me.x;
        this.z = me.z;
      }
    });
    this.beginWalking();
  }

  protected sendEvent(type: string, data: unknown): void {
    this.room?.send(type, data);
  }

  stop(): void {
    this.stopWalking();
    this.room?.reconnection && (this.room.reconnection.enabled = false);
    void this.room?.leave().catch(() => {});
  }
}
