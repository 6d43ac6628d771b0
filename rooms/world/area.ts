/**
 * The fixed shape of a message area of the world (movement, chat, bank, combat, trade, …). One area's module
 * answers, in one declaration: which client events it handles and with which payload schema, which events it
 * sends, which chat commands it owns, what it keeps per player, and what it does on the tick and when players
 * come and go. rooms/world/message-table.ts combines the areas into the one table the WorldRoom dispatches from.
 *
 * A handler follows check → rule → transaction → events: it checks the player may act, asks a pure rule in
 * src/game, commits through a store in src/db when items or rows change, then sends events. A refusal is a thrown
 * GameError (src/game/refusal.ts); the room turns it into the area's refusal event and nothing has changed.
 */
import type { Client } from '@colyseus/core';
import type { z } from 'zod';
import type { OnlinePlayer } from './online-player.ts';
import type { CommandHandler, WorldApi } from './world-api.ts';

export interface HandlerContext {
  readonly world: WorldApi;
  readonly player: OnlinePlayer;
  readonly client: Client;
}

export type MessageHandler<T> = (context: HandlerContext, data: T) => void | Promise<void>;

/** The event a refusal is sent as: `error`, or `tradeError` for the trade events (the spec's choice). */
export type RefusalEvent = 'error' | 'tradeError';

export interface MessageEntry<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly handle: MessageHandler<z.infer<S>>;
  readonly refusal: RefusalEvent;
}

/** One row of an area's event table: the payload schema and its handler. */
export function on<S extends z.ZodType>(schema: S, handle: MessageHandler<z.infer<S>>, refusal: RefusalEvent = 'error'): MessageEntry<S> {
  return { schema, handle, refusal };
}

/** State kept on its owner (a player or the world) in the owner's `slots`, made on first use. */
class Slot<Owner extends { readonly slots: Map<object, unknown> }, T> {
  readonly name: string;
  private readonly create: (owner: Owner) => T;

  constructor(name: string, create: (owner: Owner) => T) {
    this.name = name;
    this.create = create;
  }

  of(owner: Owner): T {
    if (owner.slots.has(this)) return owner.slots.get(this) as T;
    const value = this.create(owner);
    owner.slots.set(this, value);
    return value;
  }

  /** The value when it was made already (never makes one). */
  peek(owner: Owner): T | undefined {
    return owner.slots.get(this) as T | undefined;
  }

  set(owner: Owner, value: T): void {
    owner.slots.set(this, value);
  }

  clear(owner: Owner): void {
    owner.slots.delete(this);
  }
}

/**
 * State an area keeps for each player in the world, stored on the player itself (not in a module-level table):
 * gone with the player object when it leaves the world.
 */
export class PlayerSlot<T> extends Slot<OnlinePlayer, T> {}

/** State an area keeps once per world (ground items, the fights in progress, open trades), stored on the world. */
export class WorldSlot<T> extends Slot<WorldApi, T> {}

export interface WorldArea {
  readonly name: string;
  /** Client → server events this area handles, with their payload schemas. */
  readonly messages: Readonly<Record<string, MessageEntry<z.ZodType>>>;
  /** Server → client events this area sends. */
  readonly sends: readonly string[];
  /** Chat commands (`/name args`) this area owns. */
  readonly commands?: Readonly<Record<string, CommandHandler>>;
  /** What the area keeps per player (held on the player object: gone with it when it leaves the world). */
  readonly playerState?: readonly PlayerSlot<unknown>[];
  /** Tick work and join / leave / drop / death / start hooks, registered through the world. */
  install?(world: WorldApi): void;
}

/** Declares an area (an identity function that gives the declaration its type). */
export function defineArea(area: WorldArea): WorldArea {
  return area;
}
