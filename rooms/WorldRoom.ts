/**
 * The shared world: players, NPCs and resource nodes on the tile grid, the 600 ms game tick, movement, chat and
 * the area of interest. SDK clients join it through the matchmaker; /ws JSON clients through the adapter, which
 * hands their events to `dispatch` — the same handlers serve both.
 *
 * Longer than the ~450 lines a file should hold, on purpose: this is the Colyseus Room, so its overrides (create,
 * join, drop, reconnect, leave, dispose) and the WorldApi the areas call must be members of this one class. Each is
 * a few lines of wiring: the rules are in rooms/entry (membership), rooms/world (tick, interest, areas) and src/.
 */
import { CloseCode, matchMaker, SchemaSerializer, type AuthContext, type Client, type Delayed, type Serializer } from '@colyseus/core';
import type { Identity } from '../src/auth/tokens.ts';
import { gameContext, trackWrite, type GameContext } from '../src/context.ts';
import { inChunks } from '../src/chunked.ts';
import type { Character } from '../src/db/entities/index.ts';
import { computeBlockedTiles, type BlockedTiles } from '../src/manifests/blocked-tiles.ts';
import type { GameData } from '../src/manifests/game-data.ts';
import { TICK_MS } from '../src/game/ticks.ts';
import { WorldState } from '../schema/world-state.ts';
import { GameError } from '../src/game/refusal.ts';
import { joinRefusal, refuseJoin } from './game-error.ts';
import { SharedEvent } from './client-link.ts';
import { SharedViewPatchSerializer } from '../src/shared-view-patches.ts';
import { GameRoom } from './game-room.ts';
import { assertSessionActive, sessionResumed } from './world/features/session-rights.ts';
import { SpatialGrid, type TrackedEntity } from './world/interest.ts';
import { InterestSync } from './world/interest-sync.ts';
import { loadPlayerContainers } from './world/item-moves.ts';
import { OnlinePlayer, type Tile } from './world/online-player.ts';
import { endSession, loadIgnores, savePositions, startSession } from '../src/db/player-sessions.ts';
import { inLeaveSaveLine } from './world/leave-saves.ts';
import { claimWorld, closeWorld, openWorld, releaseWorld, renewLease } from '../src/db/worlds.ts';
import { ROOM_CLOSE } from '../src/close-codes.ts';
import { WorldLease, type WorldFence } from './world/world-lease.ts';
import { admitEntry, type EntryAuthContext, type WorldAuth, type WorldJoinOptions } from './entry/admission.ts';
import { combatLeaveRefusal, lingerInCombat } from './entry/combat-leave.ts';
import type { ReconnectionVerdict } from './entry/reconnect-grants.ts';
import { WorldSeats } from './entry/world-seats.ts';
import { WORLD_AREAS } from './world/areas.ts';
import type { WorldListing } from './entry/world-choice.ts';
import { combineAreas } from './world/message-table.ts';
import type { CommandHandler, LeaveReason, WorldApi, WorldEntity } from './world/world-api.ts';
import { spawnNpcs, spawnResources } from './world/world-entities.ts';
import { DELIVERY_CHECK, DELIVERY_SLICE_MS, WorldTicker } from './world/world-tick.ts';
import { isUpdateEncoding, type UpdateEncoding } from './world/update-frames.ts';

/** Seconds a dropped player keeps its place, waiting to reconnect. */
export const RECONNECT_GRACE_SECONDS = 20;
export const DEFAULT_INTEREST_RADIUS = 16;
/** Positions written per statement by the auto-save (savePositions). */
const SAVE_CHUNK = 250;

export type { WorldJoinOptions } from './entry/admission.ts';
export type { WorldListing } from './entry/world-choice.ts';

export class WorldRoom extends GameRoom<WorldState> implements WorldApi {
  override maxClients = 500;
  // Worlds close themselves: numbers up to WORLDS_MIN never, the others once empty for a while (considerClosing).
  override autoDispose = false;

  /**
   * Colyseus picks its SchemaSerializer when the state is set; the world takes the one that encodes each changed
   * entity once for all who see it (src/shared-view-patches.ts), its frames sent in slices like the tick's deliveries.
   */
  override setSerializer(serializer: Serializer<WorldState>): void {
    const shared = serializer.constructor === SchemaSerializer;
    super.setSerializer(shared ? new SharedViewPatchSerializer<WorldState>({ sliceMs: DELIVERY_SLICE_MS, checkEvery: DELIVERY_CHECK }) : serializer);
  }

  data!: GameData;
  blocked!: BlockedTiles;
  grid!: SpatialGrid;
  interestRadius = DEFAULT_INTEREST_RADIUS;
  /** 0 until the world has opened (onCreate). */
  worldNumber = 0;
  /** The world's lease on its number (world-lease.ts): it acts for the world only while the lease is held. */
  lease: WorldLease | undefined;
  readonly slots = new Map<object, unknown>();
  private readonly online = new Map<string, OnlinePlayer>();
  private readonly bySession = new Map<string, OnlinePlayer>();
  /** The leaves under way (removePlayer, a leave in combat): the world's claims are released only once they are done. */
  private readonly leaving = new Set<Promise<void>>();
  private readonly sync = new InterestSync();
  private readonly ticker = new WorldTicker(this, this.sync);
  /** SDK players that asked for `world:update` room messages instead of schema sync, and the encoding. */
  private readonly sdkUpdates = new WeakMap<OnlinePlayer, UpdateEncoding>();
  private readonly commands = new Map<string, CommandHandler>();
  private readonly joinHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly leaveHooks: Array<(player: OnlinePlayer, reason: LeaveReason) => void | Promise<void>> = [];
  private readonly deathHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly dropHooks: Array<(player: OnlinePlayer) => void | Promise<void>> = [];
  private readonly startHooks: Array<() => Promise<void>> = [];
  private readonly stopHooks: Array<() => void> = [];
  private unregisterSaver: (() => void) | undefined;
  /** Seats held for dropped players, and who may resume them (rooms/entry/world-seats.ts). */
  private readonly seats = new WorldSeats();
  /** Set once the world is disposed (a player staying on after a leave in combat stops waiting). */
  private stopped = false;
  private unwatchWorld: (() => void) | undefined;
  /** One of the numbers 1…WORLDS_MIN: it never closes (world-choice.ts standingWorld). */
  private standing = false;
  /** Counts down while the world is empty; it closes when it runs out (considerClosing). */
  private idleClose: Delayed | undefined;
  /** What keeps an emptied world open (keepOpenWhile): the economy's gravestones and ground items. */
  private readonly openHolds: Array<() => boolean> = [];

  /** Runs on the matchmaking request: who is joining, and with which of their characters (rooms/entry/admission.ts). */
  static override async onAuth(_token: string, options: WorldJoinOptions, context: EntryAuthContext): Promise<WorldAuth> {
    return admitEntry(options, context);
  }

  /**
   * Creation options come from whoever joined first (joinOrCreate), rebuilt by world-choice.ts: only the server's
   * own standingWorld(n) names a number. A world that gets a number of 1…WORLDS_MIN is standing however it was
   * opened (an entry may open world 1 before the keeper does): it never closes. Everything else comes from the
   * configuration.
   */
  override async onCreate(options: { standing?: unknown; number?: unknown } = {}): Promise<void> {
    const { data, config, db } = gameContext();
    if (!data) throw new Error('the world needs validated game data (SKIP_MANIFESTS is set)');
    this.data = data;
    this.maxClients = config.worldCapacity;
    this.interestRadius = config.worldInterestRadius;
    const number = options.standing === true && typeof options.number === 'number' ? options.number : undefined;
    const acquiredAt = performance.now();
    const fence = await openWorld(db, this.roomId, matchMaker.processId, config.worldLeaseSeconds, number);
    this.worldNumber = fence.world;
    this.standing = fence.world <= config.worldsMin;
    this.lease = new WorldLease({
      ...fence, leaseSeconds: config.worldLeaseSeconds, acquiredAt,
      renew: (held, seconds) => renewLease(db, held, seconds), onLost: (reason) => this.worldLost(reason),
    });
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
      // SDK clients get one patch a tick, at its end (world-tick.ts), as /ws clients get one world:update.
      this.patchRate = null;
      this.setSimulationInterval(() => this.tick(), TICK_MS);
      this.clock.setInterval(() => void this.keepLease(), this.lease.renewEveryMs);
      this.considerClosing();
      this.unregisterSaver = gameContext().autosave.register(`world:${this.roomId}`, () => this.savePositions());
      this.unwatchWorld = gameContext().metrics.watchWorld(this);
    } catch (error) {
      // The number is free again (a failed creation is not disposed).
      for (const hook of this.stopHooks) hook();
      await closeWorld(db, fence).catch(() => {});
      throw error;
    }
  }

  override async onJoin(client: Client, options: WorldJoinOptions, auth: WorldAuth): Promise<void> {
    const { character, identity } = auth;
    const { online, db } = gameContext();
    // A world that cannot confirm its lease accepts no entry (world-lease.ts).
    try {
      this.lease!.assertHeld();
    } catch (error) {
      refuseJoin(error);
    }
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
      claimed = await claimWorld(db, character.id, this.fence(), this.roomId);
      if (!claimed) throw joinRefusal('ALREADY_ONLINE', 'That character is already in a world');
      const tile = this.startingTile(character);
      const sessionRowId = await startSession(db.em, this.fence(), character.id, identity.accountId);
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
      if (claimed) await releaseWorld(db, character.id, this.fence()).catch(() => {});
      online.delete(character.id);
      this.considerClosing();
      throw error;
    }
  }

  override onDrop(client: Client, code?: number): void {
    const player = this.bySession.get(client.sessionId);
    // A session whose rights ended keeps no seat (session-rights.ts).
    if (!player || code === CloseCode.SERVER_SHUTDOWN || player.removedFor) return;
    this.markAway(player);
    // Colyseus refuses a seat to a client that never acknowledged its join ("not joined"; the SDK's early
    // disconnect) or to a disposing room, and rejects when the grace period runs out: in each case the player
    // simply leaves (onLeave follows). The refusal must be handled here, or it is an unhandled rejection.
    const seat = this.allowReconnection(client, RECONNECT_GRACE_SECONDS);
    this.seats.held(client, seat, () => {});
    Promise.resolve(seat).catch((reason: unknown) => {
      if (reason instanceof Error) gameContext().logger.debug({ err: reason, characterId: player.id }, 'no reconnection seat held');
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
    const sessionId = this.seats.sessionOf(reconnectionToken);
    if (sessionId !== undefined && super.hasReservedSeat(sessionId, reconnectionToken)) return sessionId;
    return undefined as unknown as string;
  }

  /**
   * Authorises the next socket presenting this held seat, once and for a few seconds (rooms/entry/world-seats.ts),
   * for `identity`, which the caller verified just now: the SDK's reconnect request (rooms/entry/sdk-entry.ts, called
   * by name through `matchMaker.remoteRoomCall`, so the identity arrives as JSON) or a /ws connection
   * (rooms/entry/seats.ts). Never throws.
   */
  authorizeReconnection(sessionId: string, reconnectionToken: string, identity: Identity): ReconnectionVerdict {
    if (typeof sessionId !== 'string' || typeof reconnectionToken !== 'string' || typeof identity?.accountId !== 'string') return 'expired';
    const player = this.bySession.get(sessionId);
    const owner = player && { accountId: player.accountId, characterId: player.id };
    return this.seats.authorize(sessionId, reconnectionToken, identity, owner, super.hasReservedSeat(sessionId, reconnectionToken));
  }

  /** An SDK room socket presenting a held seat, before Colyseus sees it (rooms/entry/resuming-socket.ts). */
  async admitResumingSocket(sessionId: string, reconnectionToken: string, context: AuthContext): Promise<void> {
    const player = this.bySession.get(sessionId);
    const owner = player && { accountId: player.accountId, characterId: player.id };
    await this.seats.admitResumingSocket(sessionId, reconnectionToken, context, owner, () => super.hasReservedSeat(sessionId, reconnectionToken));
  }

  /** Whether a reconnection token belongs to a client that is connected now (the /ws adapter: ALREADY_ONLINE). */
  isConnectedWith(reconnectionToken: string): boolean {
    return this.clients.some((client) => client.reconnectionToken === reconnectionToken);
  }

  /**
   * Colyseus asks this before a socket takes a seat. One presenting a reconnection token may take only the seat held
   * for that token (never a live one), and only with the grant `authorizeReconnection` gave it.
   */
  override hasReservedSeat(sessionId: string, reconnectionToken?: string): boolean {
    if (typeof reconnectionToken === 'string' && !this.seats.admitSocket(sessionId, reconnectionToken)) return false;
    return super.hasReservedSeat(sessionId, reconnectionToken);
  }

  override onReconnect(client: Client): void {
    const player = this.bySession.get(client.sessionId);
    if (!player) return;
    this.countSends(client);
    player.client = client;
    sessionResumed(player, this.seats.takeResumer(client.sessionId));
    player.state.action = 'idle';
    player.interest.clear();
    this.ticker.markChanged(player);
    this.sync.attach(client, this.sdkUpdates.get(player));
    client.send('player:sync', player.sync());
  }

  /** A /ws `world:leave` is refused LEAVE_IN_COMBAT within 17 ticks of a hit (rooms/entry/combat-leave.ts). */
  leaveRefusal(client: Client): GameError | undefined {
    const player = this.bySession.get(client.sessionId);
    return player && combatLeaveRefusal(player.lastCombatTick, this.state.tick);
  }

  /** Gives up the seat held for a dropped player's client now: it leaves at once (session-rights.ts). */
  releaseSeat(client: Client): void {
    this.seats.release(client);
  }

  override async onLeave(client: Client, code?: number): Promise<void> {
    this.seats.forget(client.sessionId);
    const player = this.bySession.get(client.sessionId);
    if (!player) return;
    // An SDK client's consented leave in combat: its socket goes, but the character stays until its combat timer
    // ends, then leaves as below (rooms/entry/combat-leave.ts).
    const lingering = code === CloseCode.CONSENTED && !player.removedFor ? lingerInCombat(player, () => this.state.tick, () => this.stopped) : undefined;
    if (lingering) {
      this.markAway(player);
      const leave = lingering.then(() => this.removePlayer(client, player, code));
      this.leaving.add(leave);
      void trackWrite(gameContext(), leave.finally(() => this.leaving.delete(leave)));
      return;
    }
    await this.removePlayer(client, player, code);
  }

  /** The player leaves the world for good: saved, its session closed, its world claim released. */
  private async removePlayer(client: Client, player: OnlinePlayer, code: number | undefined): Promise<void> {
    this.bySession.delete(client.sessionId);
    this.online.delete(player.id);
    this.state.players.delete(player.id);
    this.grid.remove(player);
    this.sync.detach(client);
    this.ticker.forget(player);
    const reason: LeaveReason = player.removedFor
      ?? (code === CloseCode.CONSENTED ? 'logout' : code === CloseCode.SERVER_SHUTDOWN ? 'server_shutdown' : 'disconnected');
    const context = gameContext();
    const save = trackWrite(context, inLeaveSaveLine(async () => {
      try {
        for (const hook of this.leaveHooks) await hook(player, reason);
        await endSession(context.db.em, this.fence(), {
          sessionRowId: player.sessionRowId, characterId: player.id, reason, joinedAt: player.joinedAt,
          position: { x: player.x, z: player.z },
        }, this.data.world.tileSize);
      } catch (error) {
        context.logger.error({ err: error, characterId: player.id }, 'could not save the leaving player');
      } finally {
        await releaseWorld(context.db, player.id, this.fence())
          .catch((error: unknown) => context.logger.error({ err: error, characterId: player.id }, 'could not release the world claim'));
        context.online.delete(player.id);
      }
    }));
    context.leaving.set(player.id, save);
    this.leaving.add(save);
    try {
      await save;
    } finally {
      this.leaving.delete(save);
      if (context.leaving.get(player.id) === save) context.leaving.delete(player.id);
      this.considerClosing();
    }
  }

  /** The player's connection is gone but it stays in the world (a held seat, a leave in combat). */
  private markAway(player: OnlinePlayer): void {
    player.path = [];
    player.state.action = 'disconnected';
    this.ticker.markChanged(player);
    for (const hook of this.dropHooks) void (async () => hook(player))().catch((error) => gameContext().logger.error({ err: error, characterId: player.id }, 'a drop hook failed'));
  }

  override onDispose(): void {
    this.stopped = true;
    for (const hook of this.stopHooks) hook();
    this.idleClose?.clear();
    this.unregisterSaver?.();
    this.unwatchWorld?.();
    const context = gameContext();
    if (this.lease) {
      const fence = this.lease.fence();
      trackWrite(context, this.leavesDone().then(() => closeWorld(context.db, fence))
        .catch((error: unknown) => context.logger.error({ err: error, world: this.worldNumber }, 'could not record the world as closed')));
    }
  }

  /**
   * Resolves once no player is leaving: a shutdown gives up the seats held for dropped players just before the room
   * is disposed, and their saves are fenced by the world's lease, so closing the world first would refuse them.
   */
  private async leavesDone(): Promise<void> {
    // The seats' rejections start those leaves a few microtasks from now.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.leaving.size > 0) await Promise.allSettled([...this.leaving]);
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

  /**
   * Renews the lease, and re-lists the world (a restarted Redis has lost the listings; the listing is how entries
   * find the world).
   */
  private async keepLease(): Promise<void> {
    const lease = this.lease!;
    await lease.renew();
    if (!lease.held || this.stopped) return;
    const metadata = this.metadata as WorldListing | undefined;
    if (metadata) await this.setMetadata(metadata).catch(() => {});
  }

  /** A tick runs only while the lease is held; a suspended world tries to renew at once instead. */
  private tick(): void {
    const lease = this.lease!;
    if (lease.held) return this.ticker.run();
    lease.check();
    if (lease.state === 'suspended') void this.keepLease();
  }

  /**
   * The lease is gone for good (another process took the world over, or it could not be renewed for a second lease
   * time): every session of the world is closed with 4012 and the world goes away. Its clients enter again
   * through any process, into the one live world.
   */
  private worldLost(reason: string): void {
    gameContext().logger.error({ world: this.worldNumber, epoch: this.lease?.epoch, reason }, 'the world lost its lease: closing its sessions');
    void this.disconnect(ROOM_CLOSE.WORLD_LOST).catch(() => {});
  }

  private async closeEmpty(): Promise<void> {
    await this.lock();
    await this.setMetadata({ world: this.worldNumber, status: 'closing' } satisfies WorldListing);
    gameContext().logger.info({ world: this.worldNumber }, 'closing the empty world');
    await this.disconnect();
  }

  // ---- WorldApi, for the feature modules ----

  /** The players in the world now (the tick's observers). */
  get onlinePlayers(): ReadonlyMap<string, OnlinePlayer> {
    return this.online;
  }

  context(): GameContext {
    return gameContext();
  }

  fence(): WorldFence {
    return this.lease!.fence();
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
    this.ticker.markChanged(entity);
  }

  onTick(work: (tick: number) => void): void {
    this.ticker.work.push(work);
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
    this.ticker.markChanged(entity);
  }

  removeEntity(entity: WorldEntity): void {
    if (entity.kind === 'groundItem') this.state.groundItems.delete(entity.id);
    else if (entity.kind === 'gravestone') this.state.gravestones.delete(entity.id);
    else if (entity.kind === 'npc') this.state.npcs.delete(entity.id);
    else if (entity.kind === 'fire') this.state.fires.delete(entity.id);
    this.grid.remove(entity);
    this.ticker.forget(entity);
  }

  movePlayer(player: OnlinePlayer, tile: Tile): void {
    const fromX = player.x;
    const fromZ = player.z;
    player.path = [];
    player.placeAt(tile);
    this.grid.move(player, fromX, fromZ);
    this.ticker.markChanged(player);
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
    this.lease!.assertHeld();
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

  /**
   * Saves the positions that changed, SAVE_CHUNK rows per statement with the event loop free between them: on the
   * embedded database a statement runs on this thread, and one update of a full world's rows stalls its tick.
   */
  private async savePositions(): Promise<void> {
    // A world that does not hold its lease now writes nothing (the database would refuse it anyway).
    if (!this.lease?.held) return;
    const moved = [...this.online.values()].filter((p) => p.x !== p.savedX || p.z !== p.savedZ);
    await inChunks(moved, SAVE_CHUNK, async (players) => {
      // Remember what was written, not where the player stands after the await: it may have moved meanwhile.
      const rows = players.map((p) => ({ player: p, id: p.id, x: p.x, z: p.z }));
      await savePositions(gameContext().db.em, this.fence(), rows, this.data.world.tileSize);
      for (const row of rows) {
        row.player.savedX = row.x;
        row.player.savedZ = row.z;
      }
    });
  }
}
