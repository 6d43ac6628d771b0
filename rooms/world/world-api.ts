/**
 * What the WorldRoom offers the message areas that make up the game (rooms/world/area.ts): their handlers get it
 * as `world`, and their `install` registers tick work and join / leave / drop / death / start hooks through it.
 */
import type { Client } from '@colyseus/core';
import type { GameContext } from '../../src/context.ts';
import type { WorldFence } from '../../src/db/worlds.ts';
import type { BlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import type { SpatialGrid, TrackedEntity } from './interest.ts';
import type { OnlinePlayer, Tile } from './online-player.ts';

/** An entity a feature places in the world (ground items, gravestones): tracked for the area of interest. */
export type WorldEntity = TrackedEntity & { readonly state: object };

export type LeaveReason = 'logout' | 'disconnected' | 'server_shutdown' | 'kicked' | 'session_ended';

/** A slash command typed in chat: `/name arg1 arg2`. */
export type CommandHandler = (world: WorldApi, player: OnlinePlayer, args: string[]) => void | Promise<void>;

export interface WorldApi {
  readonly data: GameData;
  readonly blocked: BlockedTiles;
  readonly grid: SpatialGrid;
  readonly interestRadius: number;
  /** The world's number (1, 2, …): unique across processes while the world is open (docs/worlds.md). */
  readonly worldNumber: number;
  /** What the areas keep once per world (WorldSlot, rooms/world/area.ts). */
  readonly slots: Map<object, unknown>;
  context(): GameContext;
  /** The world's number and lease epoch: every write it makes is fenced with it (src/db/worlds.ts). */
  fence(): WorldFence;
  /** The current game tick (600 ms each). */
  currentTick(): number;
  /** Runs a `/command args` line typed by the player (UNKNOWN_COMMAND when none is registered). */
  runCommand(player: OnlinePlayer, line: string): Promise<void>;
  player(characterId: string): OnlinePlayer | undefined;
  players(): IterableIterator<OnlinePlayer>;
  /** Observers in range hear about this entity's new state on the next tick. */
  markChanged(entity: TrackedEntity): void;
  /** Runs every tick, after movement and before the area-of-interest updates. */
  onTick(work: (tick: number) => void): void;
  /** Runs while a player enters, before it is placed in the world (load what the feature needs). */
  onPlayerJoin(hook: (player: OnlinePlayer) => void | Promise<void>): void;
  /** Runs when a player leaves for good, before its session is closed (save what the feature holds). */
  onPlayerLeave(hook: (player: OnlinePlayer, reason: LeaveReason) => void | Promise<void>): void;
  /** Runs once while the world starts, before the first tick (load what the feature keeps in the world). */
  onStart(hook: () => Promise<void>): void;
  /** Runs once when the world stops (disposed, or its start failed): forget what points at it from outside. */
  onStop(hook: () => void): void;
  /**
   * An emptied world that may close (one the matchmaker opened) stays open while `holds()` is true: something in it
   * is still someone's to claim or still due to expire (gravestones, ground items). Checked when it would close.
   */
  keepOpenWhile(holds: () => boolean): void;
  /** Places a ground item or gravestone: in the synchronised state and the area of interest. */
  addEntity(entity: WorldEntity): void;
  /** Takes a placed entity out of the world (observers see it leave on the next tick). */
  removeEntity(entity: WorldEntity): void;
  /** Puts a player on a tile at once (respawn, teleport), stopping its walk. */
  movePlayer(player: OnlinePlayer, tile: Tile): void;
  /**
   * Runs when a player's connection drops and the world holds its seat for a reconnection (the player stays in
   * the world, marked disconnected): what needs a connected player ends now (trade requests, an open trade).
   */
  onPlayerDropped(hook: (player: OnlinePlayer) => void | Promise<void>): void;
  /** Gives up the seat held for a dropped player's client: the player leaves the world now (its rights ended). */
  releaseSeat(client: Client): void;
  /** Runs when a player dies, before the death is resolved (e.g. an open trade is cancelled). */
  onPlayerDied(hook: (player: OnlinePlayer) => void | Promise<void>): void;
  /** Tells every feature that the player died (called by whatever killed it). */
  notifyPlayerDied(player: OnlinePlayer): Promise<void>;
  /**
   * Sends an event to the players within `radius` of a tile (that `accept`). With `withTick`, /ws players get it with
   * their next world:update and SDK players right after their next state patch, in the same socket write (public
   * chat: a tick's worth of lines costs one write).
   */
  sendNear(x: number, z: number, radius: number, type: string, data: unknown, accept?: (listener: OnlinePlayer) => boolean, options?: { withTick?: boolean }): void;
}
