/**
 * The shared world: players, NPCs and resource nodes on the tile grid, the 600 ms game tick, movement, chat and
 * the area of interest. SDK clients join it through the matchmaker; /ws JSON clients through the adapter, which
 * hands their events to `dispatch` — the same handlers serve both.
 */
import { CloseCode, ErrorCode, matchMaker, type AuthContext, type Client, type Delayed } from '@colyseus/core';
import { authenticateColyseusClient } from '../src/auth/colyseus.ts';
import type { Identity } from '../src/auth/tokens.ts';
import { gameContext, trackWrite, type GameContext } from '../src/context.ts';
import { inChunks } from '../src/chunked.ts';
import type { Character } from '../src/db/entities/index.ts';
import { computeBlockedTiles, type BlockedTiles } from '../src/manifests/blocked-tiles.ts';
import type { GameData } from '../src/manifests/game-data.ts';
import { VERIFIED_IDENTITY } from '../src/auth/verified-identity.ts';
import { TICK_MS } from '../src/game/ticks.ts';
import { WorldState } from '../schema/world-state.ts';
import { GameError } from '../src/game/refusal.ts';
import { JoinRefusal, joinRefusal, refuseJoin } from './game-error.ts';
import { SharedEvent } from './client-link.ts';
import { GameRoom } from './game-room.ts';
import { admitResumer, assertSessionActive, recheckJoiningIdentity, sessionResumed } from './world/features/session-rights.ts';
import { SpatialGrid, type TrackedEntity } from './world/interest.ts';
import { InterestSync } from './world/interest-sync.ts';
import { loadPlayerContainers } from './world/item-moves.ts';
import { OnlinePlayer, type Tile } from './world/online-player.ts';
import { createCharacterOnEntry, endSession, loadIgnores, loadOwnedCharacter, savePositions, startSession } from '../src/db/player-sessions.ts';
import { admitWorldEntry } from './world/entry-limit.ts';
import { claimWorld, closeWorld, heartbeat, openWorld, releaseWorld, WORLD_HEARTBEAT_SECONDS } from '../src/db/worlds.ts';
import { ReconnectGrants, type ReconnectionVerdict } from './world/reconnect-grants.ts';
import { WORLD_AREAS } from './world/areas.ts';
import type { WorldListing } from './world/world-choice.ts';
import { combineAreas } from './world/message-table.ts';
import type { CommandHandler, LeaveReason, WorldApi, WorldEntity } from './world/world-api.ts';
import { spawnNpcs, spawnResources } from './world/world-entities.ts';
import { runInSlices } from './world/delivery-slices.ts';
import { isUpdateEncoding, UPDATE_ENCODINGS, type UpdateEncoding } from './world/update-frames.ts';

/** Seconds a dropped player keeps its place, waiting to reconnect. */
export const RECONNECT_GRACE_SECONDS = 20;
export const DEFAULT_INTEREST_RADIUS = 16;
/** Milliseconds of a tick's delivery done in one go (delivery-slices.ts); the clock is read every DELIVERY_CHECK players. */
const DELIVERY_SLICE_MS = 4;
const DELIVERY_CHECK = 16;
/** Positions written per statement by the auto-save (savePositions). */
const SAVE_CHUNK = 250;

type AdapterAuthContext = AuthContext & { [VERIFIED_IDENTITY]?: Identity };

export interface WorldJoinOptions {
  characterId?: unknown;
  createCharacter?: unknown;
  /** SDK clients: `json` or `compact` for `world:update` room messages instead of schema sync (sdk-updates.ts). */
  updates?: unknown;
}

/** Colyseus' seat consumption, private in its typings: wrapped to check who is reconnecting (see the constructor). */
type SeatConsumer = (client: Client, authContext: AdapterAuthContext, options?: { reconnectionToken?: unknown }) => Promise<void>;

interface WorldAuth {
  identity: Identity;
  character: Character;
  /** The client's address (for attempt limits such as the admin code). */
  address: string | undefined;
}

/** A reconnection token that holds no seat: unknown, already used, or past the grace period. */
function invalidReconnectionToken(): JoinRefusal {
  return new JoinRefusal('INVALID_RECONNECTION_TOKEN', 'The reconnection token is unknown, used or expired', ErrorCode.MATCHMAKE_EXPIRED);
}

export type { WorldListing } from './world/world-choice.ts';

export class WorldRoom extends GameRoom<WorldState> implements WorldApi {
  override maxClients = 500;
  // Worlds close themselves: numbers up to WORLDS_MIN never, the others once empty for a while (considerClosing).
  override autoDispose = false;
  data!: GameData;
  blocked!: BlockedTiles;
  grid!: SpatialGrid;
  interestRadius = DEFAULT_INTEREST_RADIUS;
  /** 0 until the world has opened (onCreate). */
  worldNumber = 0;
  readonly slots = new Map<object, unknown>();
  private readonly online = new Map<string, OnlinePlayer>();
  private readonly bySession = new Map<string, OnlinePlayer>();
  /** Entities changed since the last delivery began (handlers running mid-delivery add to the next one). */
  private dirty = new Set<TrackedEntity>();
  private delivering = false;
  /** When the last tick started (performance.now()), for its successor's lateness. */
  private lastTickAt: number | undefined;
  private readonly sync = new InterestSync();
  /** SDK players that asked for `world:update` room messages instead of schema sync, and the encoding. */
  private readonly sdkUpdates = new WeakMap<OnlinePlayer, UpdateEncoding>();
  private readonly commands = new Map<string, CommandHandler>();
  private readonly tickWork: Array<(tick: number) => void> = [];
  private readonly joinHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly leaveHooks: Array<(player: OnlinePlayer, reason: LeaveReason) => void | Promise<void>> = [];
  private readonly deathHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly dropHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly startHooks: Array<() => Promise<void>> = [];
  private readonly stopHooks: Array<() => void> = [];
  private unregisterSaver: (() => void) | undefined;
  /** Reconnection tokens of the seats held for dropped players (onDrop), by token → session id. */
  private readonly waitingSeats = new Map<string, string>();
  /** One-time authorisations from the HTTP step of the SDK's reconnect (reconnect-grants.ts). */
  private readonly reconnectGrants = new ReconnectGrants();
  /** The principal admitted to resume each seat (admitReconnection), handed to the session by onReconnect. */
  private readonly resumers = new Map<string, Identity>();
  private unwatchWorld: (() => void) | undefined;
  /** One of the WORLDS_MIN worlds the server opened itself: it never closes (world-choice.ts STANDING_WORLD). */
  private standing = false;
  /** Counts down while the world is empty; it closes when it runs out (considerClosing). */
  private idleClose: Delayed | undefined;
  /** What keeps an emptied world open (keepOpenWhile): the economy's gravestones and ground items. */
  private readonly openHolds: Array<() => boolean> = [];

  constructor() {
    super();
    // Colyseus checks nothing about who takes a held seat: the reconnection token alone would do, from any
    // socket. Every reconnection (SDK socket or /ws adapter) passes here first, with the auth context of the
    // connection, before Colyseus consumes the seat; a refusal leaves the seat waiting for its owner.
    const self = this as unknown as { _onJoin: SeatConsumer };
    const consumeSeat = self._onJoin.bind(this);
    self._onJoin = async (client, authContext, options) => {
      const token = options?.reconnectionToken;
      if (typeof token === 'string' && token.length > 0) await this.admitReconnection(client, authContext, token);
      return consumeSeat(client, authContext, options);
    };
  }

  /** Runs on the matchmaking request: who is joining, and with which of their characters. */
  static override async onAuth(_token: string, options: WorldJoinOptions, context: AdapterAuthContext): Promise<WorldAuth> {
    const verified = context[VERIFIED_IDENTITY];
    // A socket's identity was verified once, at authenticate: entering (again) re-checks its rights.
    const identity = verified ? await recheckJoiningIdentity(verified) : await authenticateColyseusClient(context);
    const { db } = gameContext();
    try {
      await admitWorldEntry(identity.accountId);
      if (typeof options.characterId === 'string') await gameContext().leaving.get(options.characterId)?.catch(() => {});
      let character: Character;
      if (options.updates !== undefined && !isUpdateEncoding(options.updates)) {
        throw new GameError('INVALID_REQUEST', `"updates" must be one of ${UPDATE_ENCODINGS.join(', ')}`);
      }
      if (options.createCharacter !== undefined) {
        character = await createCharacterOnEntry(db.em, gameContext().data!, identity.accountId, options.createCharacter);
      } else if (typeof options.characterId === 'string' && options.characterId.length <= 64) {
        character = await loadOwnedCharacter(db.em, identity.accountId, options.characterId);
      } else {
        throw new GameError('INVALID_REQUEST', 'Join with { characterId } or { createCharacter: { name, templateId? } }');
      }
      if (identity.characterId !== undefined && identity.characterId !== character.id) {
        throw new GameError('CHARACTER_NOT_OWNED', 'This token is bound to another character');
      }
      if (gameContext().online.has(character.id)) {
        throw new GameError('ALREADY_ONLINE', 'That character is already in the world');
      }
      return { identity, character, address: context.ip };
    } catch (error) {
      if (error instanceof GameError) throw joinRefusal(error.code, error.message);
      throw error;
    }
  }

  /**
   * Creation options come from whoever joined first (joinOrCreate), rebuilt by world-choice.ts: only the server's
   * own STANDING_WORLD marks a world that never closes. Everything else comes from the configuration.
   */
  override async onCreate(options: { standing?: unknown } = {}): Promise<void> {
    const { data, config, db } = gameContext();
    if (!data) throw new Error('the world needs validated game data (SKIP_MANIFESTS is set)');
    this.data = data;
    this.maxClients = config.worldCapacity;
    this.interestRadius = config.worldInterestRadius;
    this.standing = options.standing === true;
    this.worldNumber = await openWorld(db, this.roomId, matchMaker.processId);
    try {
      await this.setMetadata({ world: this.worldNumber, status: 'open', ...(this.standing ? { standing: true } : {}) } satisfies WorldListing);
      this.grid = new SpatialGrid(this.interestRadius);
      this.blocked = computeBlockedTiles(data);
      this.state = new WorldState();
      this.state.tick = 0;
      for (const npc of spawnNpcs(data)) {
        this.state.npcs.set(npc.id, npc.state);
        this.grid.insert(npc);
      }
      for (const resource of spawnResources(data)) {
        this.state.resources.set(resource.id, resource.state);
        this.grid.insert(resource);
      }
      const table = combineAreas(WORLD_AREAS);
      for (const [type, { entry }] of table.messages) {
        this.registerHandler(type, entry.schema, (client, data) => entry.handle({ world: this, player: this.playerOf(client), client }, data), entry.refusal);
      }
      for (const [name, handler] of table.commands) this.commands.set(name, handler);
      for (const area of WORLD_AREAS) area.install?.(this);
      for (const hook of this.startHooks) await hook();
      this.setSimulationInterval(() => this.runTick(), TICK_MS);
      this.clock.setInterval(() => void this.beat(), WORLD_HEARTBEAT_SECONDS * 1000);
      this.considerClosing();
      this.unregisterSaver = gameContext().autosave.register(`world:${this.roomId}`, () => this.savePositions());
      this.unwatchWorld = gameContext().metrics.watchWorld(this);
    } catch (error) {
      // The number is free again (a failed creation is not disposed).
      for (const hook of this.stopHooks) hook();
      await closeWorld(db, this.roomId).catch(() => {});
      throw error;
    }
  }

  override async onJoin(client: Client, options: WorldJoinOptions, auth: WorldAuth): Promise<void> {
    const { character, identity } = auth;
    const { online, db } = gameContext();
    this.countSends(client);
    // Re-checked synchronously: two joins for one character may both have passed onAuth.
    if (online.has(character.id)) throw joinRefusal('ALREADY_ONLINE', 'That character is already in the world');
    online.add(character.id);
    this.idleClose?.clear();
    this.idleClose = undefined;
    let claimed = false;
    client.ref.once('close', () => {
      if (!this.bySession.has(client.sessionId)) online.delete(character.id);
    });
    try {
      // Across processes: the character may be in a world that another process runs (docs/worlds.md).
      claimed = await claimWorld(db, character.id, this.worldNumber, this.roomId);
      if (!claimed) throw joinRefusal('ALREADY_ONLINE', 'That character is already in a world');
      const tile = this.startingTile(character);
      const sessionRowId = await startSession(db.em, character.id, identity.accountId);
      const player = new OnlinePlayer({
        characterId: character.id, accountId: identity.accountId, name: character.name, x: tile.x, z: tile.z,
        health: character.health, maxHealth: character.constitutionLevel * 10, combatLevel: character.combatLevel,
        sessionRowId, roles: identity.roles, world: this.worldNumber,
      }, client);
      player.address = auth.address;
      player.ignores = await loadIgnores(db.em, identity.accountId);
      await loadPlayerContainers(this, player);
      for (const hook of this.joinHooks) await hook(player);
      this.online.set(player.id, player);
      this.bySession.set(client.sessionId, player);
      this.state.players.set(player.id, player.state);
      this.grid.insert(player);
      if (isUpdateEncoding(options.updates)) this.sdkUpdates.set(player, options.updates);
      this.sync.attach(client, this.sdkUpdates.get(player));
      this.sync.deliver(client, this.state.tick, player.interest.update(this.grid, player.id, player.x, player.z, this.interestRadius), player.interest.visible);
      client.send('player:sync', player.sync());
    } catch (error) {
      if (claimed) await releaseWorld(db, character.id, this.roomId).catch(() => {});
      online.delete(character.id);
      this.considerClosing();
      throw error;
    }
  }

  override onDrop(client: Client, code?: number): void {
    const player = this.bySession.get(client.sessionId);
    // A session whose rights ended keeps no seat (session-rights.ts).
    if (!player || code === CloseCode.SERVER_SHUTDOWN || player.removedFor) return;
    player.path = [];
    player.state.action = 'disconnected';
    this.dirty.add(player);
    for (const hook of this.dropHooks) void (async () => hook(player))().catch((error) => gameContext().logger.error({ err: error, characterId: player.id }, 'a drop hook failed'));
    // Colyseus refuses a seat to a client that never acknowledged its join ("not joined"; the SDK's early
    // disconnect) or to a disposing room, and rejects when the grace period runs out: in each case the player
    // simply leaves (onLeave follows). The refusal must be handled here, or it is an unhandled rejection.
    const token = client.reconnectionToken;
    this.waitingSeats.set(token, client.sessionId);
    const seat = this.allowReconnection(client, RECONNECT_GRACE_SECONDS);
    Promise.resolve(seat).catch((reason: unknown) => {
      if (reason instanceof Error) gameContext().logger.debug({ err: reason, characterId: player.id }, 'no reconnection seat held');
    }).finally(() => {
      if (this.waitingSeats.get(token) === client.sessionId) this.waitingSeats.delete(token);
      this.reconnectGrants.forget(token);
    });
  }

  /**
   * The matchmaker's reconnection lookup (SDK `reconnect` and the /ws adapter; with REDIS_URL possibly called from
   * another process). Only a seat held for a dropped player is handed out; anything else is `undefined`, which the
   * matchmaker answers as an invalid or expired token. Colyseus would also hand out the seat of a client still
   * connected, closing that live socket ("stale connection"): here the live player stays (see `isConnectedWith`).
   * Never throws: across processes a thrown refusal would arrive as a timeout.
   */
  override checkReconnectionToken(reconnectionToken: string): string {
    const sessionId = this.waitingSeats.get(reconnectionToken);
    if (sessionId !== undefined && super.hasReservedSeat(sessionId, reconnectionToken)) return sessionId;
    return undefined as unknown as string;
  }

  /**
   * The HTTP step of the SDK's reconnect (`POST /matchmake/reconnect`, which verified `accountId`'s bearer token)
   * authorises the socket that follows to take the seat without credentials of its own, once and for a few
   * seconds (reconnect-grants.ts). Called by name through `matchMaker.remoteRoomCall`: never throws.
   */
  authorizeReconnection(sessionId: string, reconnectionToken: string, accountId: string, characterId?: string | null): ReconnectionVerdict {
    if (typeof sessionId !== 'string' || typeof reconnectionToken !== 'string' || typeof accountId !== 'string') return 'expired';
    if (this.waitingSeats.get(reconnectionToken) !== sessionId || !super.hasReservedSeat(sessionId, reconnectionToken)) return 'expired';
    const player = this.bySession.get(sessionId);
    if (player?.accountId !== accountId) return 'forbidden';
    // A token bound to one character may not resume another's seat.
    if (typeof characterId === 'string' && characterId !== player.id) return 'forbidden';
    this.reconnectGrants.grant(sessionId, reconnectionToken, accountId);
    return 'granted';
  }

  /** Whether a reconnection token belongs to a client that is connected now (the /ws adapter: ALREADY_ONLINE). */
  isConnectedWith(reconnectionToken: string): boolean {
    return this.clients.some((client) => client.reconnectionToken === reconnectionToken);
  }

  /** A socket presenting a reconnection token may take only the seat held for that token (never a live one). */
  override hasReservedSeat(sessionId: string, reconnectionToken?: string): boolean {
    if (typeof reconnectionToken === 'string' && this.waitingSeats.get(reconnectionToken) !== sessionId) return false;
    return super.hasReservedSeat(sessionId, reconnectionToken);
  }

  override onReconnect(client: Client): void {
    const player = this.bySession.get(client.sessionId);
    if (!player) return;
    this.countSends(client);
    player.client = client;
    const resumer = this.resumers.get(client.sessionId);
    this.resumers.delete(client.sessionId);
    sessionResumed(player, resumer);
    player.state.action = 'idle';
    player.interest.clear();
    this.dirty.add(player);
    this.sync.attach(client, this.sdkUpdates.get(player));
    client.send('player:sync', player.sync());
  }

  override async onLeave(client: Client, code?: number): Promise<void> {
    this.resumers.delete(client.sessionId);
    const player = this.bySession.get(client.sessionId);
    if (!player) return;
    this.bySession.delete(client.sessionId);
    this.online.delete(player.id);
    this.state.players.delete(player.id);
    this.grid.remove(player);
    this.dirty.delete(player);
    const reason: LeaveReason = player.removedFor
      ?? (code === CloseCode.CONSENTED ? 'logout' : code === CloseCode.SERVER_SHUTDOWN ? 'server_shutdown' : 'disconnected');
    const context = gameContext();
    const save = trackWrite(context, (async () => {
      try {
        for (const hook of this.leaveHooks) await hook(player, reason);
        await endSession(context.db.em, {
          sessionRowId: player.sessionRowId, characterId: player.id, reason, joinedAt: player.joinedAt,
          position: { x: player.x, z: player.z },
        }, this.data.world.tileSize);
      } catch (error) {
        context.logger.error({ err: error, characterId: player.id }, 'could not save the leaving player');
      } finally {
        await releaseWorld(context.db, player.id, this.roomId)
          .catch((error: unknown) => context.logger.error({ err: error, characterId: player.id }, 'could not release the world claim'));
        context.online.delete(player.id);
      }
    })());
    context.leaving.set(player.id, save);
    try {
      await save;
    } finally {
      if (context.leaving.get(player.id) === save) context.leaving.delete(player.id);
      this.considerClosing();
    }
  }

  override onDispose(): void {
    for (const hook of this.stopHooks) hook();
    this.idleClose?.clear();
    this.unregisterSaver?.();
    this.unwatchWorld?.();
    const context = gameContext();
    if (this.worldNumber > 0) {
      trackWrite(context, closeWorld(context.db, this.roomId)
        .catch((error: unknown) => context.logger.error({ err: error, world: this.worldNumber }, 'could not record the world as closed')));
    }
  }

  /**
   * An empty world numbered above WORLDS_MIN closes after WORLD_IDLE_CLOSE_SECONDS: it is locked first (no new
   * seats), listed as closing, and disposed once its last seats are gone. A join before then keeps it open. While
   * it still holds a gravestone or ground items (keepOpenWhile) it waits on, checking again every such period: they
   * are claimed or expire on time in the running world, never stranded in a closed one.
   */
  private considerClosing(): void {
    const { config } = gameContext();
    if (this.standing || this.online.size > 0 || this.idleClose) return;
    this.idleClose = this.clock.setTimeout(() => {
      this.idleClose = undefined;
      if (this.online.size > 0 || this.clients.length > 0) return;
      if (this.openHolds.some((holds) => holds())) return this.considerClosing();
      void this.closeEmpty().catch((error: unknown) => gameContext().logger.error({ err: error, world: this.worldNumber }, 'could not close the empty world'));
    }, config.worldIdleCloseSeconds * 1000);
  }

  /** Keeps the world's row alive (src/db/worlds.ts): other processes take a silent world for dead. */
  private async beat(): Promise<void> {
    const { db, logger } = gameContext();
    try {
      if (!(await heartbeat(db, this.roomId))) logger.error({ world: this.worldNumber }, 'the world\'s row is gone: it was taken for dead');
    } catch (error) {
      logger.warn({ err: error, world: this.worldNumber }, 'could not refresh the world heartbeat');
    }
  }

  private async closeEmpty(): Promise<void> {
    await this.lock();
    await this.setMetadata({ world: this.worldNumber, status: 'closing' } satisfies WorldListing);
    gameContext().logger.info({ world: this.worldNumber }, 'closing the empty world');
    await this.disconnect();
  }

  /**
   * Who may take a held seat: a connection that presents a valid token of the same account (the /ws adapter
   * verified it at `authenticate`; an SDK socket sends `Authorization: Bearer` on its upgrade request), or a socket
   * without credentials right after the SDK's reconnect request authorised the seat (a browser: no headers on a
   * WebSocket). Any grant is used up here, whichever way the socket is admitted.
   */
  private async admitReconnection(client: Client, authContext: AdapterAuthContext, reconnectionToken: string): Promise<void> {
    const player = this.bySession.get(client.sessionId);
    if (!player || this.waitingSeats.get(reconnectionToken) !== client.sessionId) throw invalidReconnectionToken();
    const granted = this.reconnectGrants.take(client.sessionId, reconnectionToken);
    const presentsCredentials = authContext[VERIFIED_IDENTITY] !== undefined || authContext.headers?.has('authorization') === true;
    if (granted !== undefined && !presentsCredentials) {
      // The HTTP step verified the account's token (and its character binding) a moment ago.
      if (granted !== player.accountId) throw joinRefusal('FORBIDDEN', 'That session belongs to another account');
    } else {
      // The /ws adapter's identity was verified at authenticate, maybe long ago: its rights are checked again.
      const presented = authContext[VERIFIED_IDENTITY] ?? await authenticateColyseusClient(authContext).catch(refuseJoin);
      this.resumers.set(client.sessionId, await admitResumer(player, presented));
    }
    // The verification awaited: the grace period may have run out meanwhile.
    if (!this.hasReservedSeat(client.sessionId, reconnectionToken)) {
      this.resumers.delete(client.sessionId);
      throw invalidReconnectionToken();
    }
  }

  /** For the /ws adapter: a reconnecting socket must belong to the same account as the held seat. */
  sessionBelongsTo(sessionId: string, accountId: string): boolean {
    return this.bySession.get(sessionId)?.accountId === accountId;
  }

  // ---- WorldApi, for the feature modules ----

  context(): GameContext {
    return gameContext();
  }

  currentTick(): number {
    return this.state.tick;
  }

  async runCommand(player: OnlinePlayer, line: string): Promise<void> {
    const [name, ...args] = line.replace(/^\//, '').split(/\s+/);
    const handler = this.commands.get(name ?? '');
    if (!handler) throw new GameError('UNKNOWN_COMMAND', `Unknown command /${(name ?? '').slice(0, 32)}`);
    await handler(this, player, args);
  }

  player(characterId: string): OnlinePlayer | undefined {
    return this.online.get(characterId);
  }

  players(): IterableIterator<OnlinePlayer> {
    return this.online.values();
  }

  markChanged(entity: TrackedEntity): void {
    this.dirty.add(entity);
  }

  onTick(work: (tick: number) => void): void {
    this.tickWork.push(work);
  }

  onPlayerJoin(hook: (player: OnlinePlayer) => void | Promise<void>): void {
    this.joinHooks.push(hook);
  }

  onPlayerLeave(hook: (player: OnlinePlayer, reason: LeaveReason) => void | Promise<void>): void {
    this.leaveHooks.push(hook);
  }

  onStart(hook: () => Promise<void>): void {
    this.startHooks.push(hook);
  }

  onStop(hook: () => void): void {
    this.stopHooks.push(hook);
  }

  keepOpenWhile(holds: () => boolean): void {
    this.openHolds.push(holds);
  }

  addEntity(entity: WorldEntity): void {
    if (entity.kind === 'groundItem') this.state.groundItems.set(entity.id, entity.state as never);
    else if (entity.kind === 'gravestone') this.state.gravestones.set(entity.id, entity.state as never);
    else if (entity.kind === 'npc') this.state.npcs.set(entity.id, entity.state as never);
    else if (entity.kind === 'fire') this.state.fires.set(entity.id, entity.state as never);
    else throw new Error(`addEntity does not place ${entity.kind} entities`);
    this.grid.insert(entity);
    this.dirty.add(entity);
  }

  removeEntity(entity: WorldEntity): void {
    if (entity.kind === 'groundItem') this.state.groundItems.delete(entity.id);
    else if (entity.kind === 'gravestone') this.state.gravestones.delete(entity.id);
    else if (entity.kind === 'npc') this.state.npcs.delete(entity.id);
    else if (entity.kind === 'fire') this.state.fires.delete(entity.id);
    this.grid.remove(entity);
    this.dirty.delete(entity);
  }

  movePlayer(player: OnlinePlayer, tile: Tile): void {
    const fromX = player.x;
    const fromZ = player.z;
    player.path = [];
    player.placeAt(tile);
    this.grid.move(player, fromX, fromZ);
    this.dirty.add(player);
  }

  onPlayerDropped(hook: (player: OnlinePlayer) => void | Promise<void>): void {
    this.dropHooks.push(hook);
  }

  onPlayerDied(hook: (player: OnlinePlayer) => void | Promise<void>): void {
    this.deathHooks.push(hook);
  }

  async notifyPlayerDied(player: OnlinePlayer): Promise<void> {
    for (const hook of this.deathHooks) await hook(player);
  }

  sendNear(x: number, z: number, radius: number, type: string, data: unknown, accept?: (listener: OnlinePlayer) => boolean, options: { withTick?: boolean } = {}): void {
    const event = new SharedEvent(type, data);
    this.grid.forEachNear(x, z, radius, (entity) => {
      if (entity.kind !== 'player') return;
      const listener = entity as OnlinePlayer;
      if (accept && !accept(listener)) return;
      if (options.withTick) this.sync.sendWithTick(listener.client, event);
      else event.sendTo(listener.client);
    });
  }

  // ---- internals ----

  private playerOf(client: Client): OnlinePlayer {
    const player = this.bySession.get(client.sessionId);
    if (!player) throw new GameError('NOT_IN_WORLD', 'You are not in the world');
    assertSessionActive(this, player);
    return player;
  }

  private startingTile(character: Character): Tile {
    const home = this.data.world.home;
    if (!character.lastLoginAt) return { x: home.x, z: home.z };
    const tile = {
      x: Math.round(character.positionX / this.data.world.tileSize),
      z: Math.round(character.positionZ / this.data.world.tileSize),
    };
    return this.blocked.isBlocked(tile.x, tile.z) ? { x: home.x, z: home.z } : tile;
  }

  private runTick(): void {
    // An overloaded world skips a tick rather than piling deliveries on top of each other.
    if (this.delivering) return;
    const metrics = gameContext().metrics;
    const stopTimer = metrics.timeTick(this.roomId);
    const startedAt = performance.now();
    const latenessSeconds = this.lastTickAt === undefined ? undefined : Math.max(0, startedAt - this.lastTickAt - TICK_MS) / 1000;
    this.lastTickAt = startedAt;
    const tick = ++this.state.tick;
    for (const work of this.tickWork) {
      try {
        work(tick);
      } catch (error) {
        gameContext().logger.error({ err: error, tick }, 'tick work failed');
      }
    }
    const workMs = performance.now() - startedAt;
    const dirty = this.dirty;
    this.dirty = new Set();
    this.sync.beginTick(dirty);
    const observers = [...this.online.values()];
    let interestMs = 0;
    this.delivering = true;
    const deliverTo = (index: number) => {
      const player = observers[index];
      if (this.online.get(player.id) !== player) return;
      const before = performance.now();
      const diff = player.interest.update(this.grid, player.id, player.x, player.z, this.interestRadius);
      interestMs += performance.now() - before;
      this.sync.deliver(player.client, tick, diff, player.interest.visible);
    };
    const delivered = () => {
      this.delivering = false;
      const patchStarted = performance.now();
      this.broadcastPatch();
      const costs = this.sync.costs;
      metrics.tickPhases({
        work: workMs / 1000, interest: interestMs / 1000, encode: costs.encodeMs / 1000, send: costs.sendMs / 1000,
        patch: (performance.now() - patchStarted) / 1000, latenessSeconds, jsonBytes: costs.jsonBytes, jsonPlayers: costs.jsonObservers,
        sampledPlayers: costs.sampled, naiveSnapshotBytes: costs.naiveSnapshotBytes, bitpackedBoundBytes: costs.bitpackedBoundBytes,
      });
      stopTimer();
    };
    runInSlices(observers.length, deliverTo, delivered, { sliceMs: DELIVERY_SLICE_MS, checkEvery: DELIVERY_CHECK, finishBy: startedAt + TICK_MS / 2 });
  }

  /**
   * Saves the positions that changed, SAVE_CHUNK rows per statement with the event loop free between them: on the
   * embedded database a statement runs on this thread, and one update of a full world's rows stalls its tick.
   */
  private async savePositions(): Promise<void> {
    const moved = [...this.online.values()].filter((p) => p.x !== p.savedX || p.z !== p.savedZ);
    await inChunks(moved, SAVE_CHUNK, async (players) => {
      // Remember what was written, not where the player stands after the await: it may have moved meanwhile.
      const rows = players.map((p) => ({ player: p, id: p.id, x: p.x, z: p.z }));
      await savePositions(gameContext().db.em, rows, this.data.world.tileSize);
      for (const row of rows) {
        row.player.savedX = row.x;
        row.player.savedZ = row.z;
      }
    });
  }
}
