/** A character in the world: its synchronised state, its connection, its path and what it currently sees. */
import type { Client } from '@colyseus/core';
import { PlayerState } from '../../schema/world-state.ts';
import { gameContext } from '../../src/context.ts';
import type { Containers } from '../../src/db/item-transaction.ts';
import { emptyEquipment, totalBonuses } from '../../src/game/equipment.ts';
import { emptyInventory } from '../../src/game/inventory.ts';
import { MAX_RUN_ENERGY, energyPercent } from '../../src/game/run-energy.ts';
import { GameError } from '../../src/game/refusal.ts';
import { InterestScratch, InterestSet, type TrackedEntity } from './interest.ts';

export interface Tile {
  x: number;
  z: number;
}

export interface OnlinePlayerInit {
  characterId: string;
  accountId: string;
  name: string;
  x: number;
  z: number;
  health: number;
  maxHealth: number;
  combatLevel: number;
  sessionRowId: string;
  roles: readonly string[];
  /** The number of the world the player is in (docs/worlds.md). */
  world: number;
}

export class OnlinePlayer extends InterestScratch implements TrackedEntity {
  readonly kind = 'player' as const;
  readonly id: string;
  /**
   * The tile, also in `state`: plain fields because the area of interest reads every nearby entity's position for
   * every observer each tick, and a schema accessor costs several times a field read there. Set through placeAt.
   */
  x: number;
  z: number;
  readonly accountId: string;
  readonly name: string;
  readonly state: PlayerState;
  readonly interest = new InterestSet();
  readonly sessionRowId: string;
  readonly world: number;
  readonly joinedAt = Date.now();
  /** What the areas keep for this player (PlayerSlot, rooms/world/area.ts). */
  readonly slots = new Map<object, unknown>();
  roles: readonly string[];
  client: Client;
  /** The client's address, for attempt limits (admin code). */
  address: string | undefined;
  /** Tiles still to walk, nearest first. */
  path: Tile[] = [];
  /** Inventory and equipment as last committed to the database (replaced after each item transaction). */
  containers: Containers = { inventory: emptyInventory(), equipment: emptyEquipment() };
  /** Characters whose chat this player's account ignores. */
  ignores = new Set<string>();
  /** Set after the admin code was given in this session. */
  isAdmin = false;
  /**
   * What holds the player's interface (e.g. an open trade). While set, actions other than chat are refused so
   * nothing the player holds can move outside that activity.
   */
  lock: string | undefined;
  /** Why the player is being taken out of the world, when the server decided it (an admin's /kick). */
  removedFor: 'kicked' | 'session_ended' | undefined;
  /** The player counts as in combat until this tick (set by combat; interrupts a home teleport). */
  inCombatUntilTick = 0;
  /** The tick of the last hit this player gave or took (a world hop waits 17 ticks, 10.2 s, after it: src/game/world-hop.ts). */
  lastCombatTick = -Infinity;
  /** Run energy in hundredths of a percent (src/game/run-energy.ts; loaded and kept by the movement area). */
  runEnergy = MAX_RUN_ENERGY;
  /** Position last written to the database, to skip saves when nothing moved. */
  savedX: number;
  savedZ: number;

  constructor(init: OnlinePlayerInit, client: Client) {
    super();
    this.id = init.characterId;
    this.accountId = init.accountId;
    this.name = init.name;
    this.sessionRowId = init.sessionRowId;
    this.world = init.world;
    this.roles = init.roles;
    this.client = client;
    this.x = init.x;
    this.z = init.z;
    this.state = new PlayerState();
    Object.assign(this.state, {
      id: init.characterId,
      name: init.name,
      x: init.x,
      z: init.z,
      running: false,
      health: init.health,
      maxHealth: init.maxHealth,
      combatLevel: init.combatLevel,
      appearance: '',
      action: 'idle',
    });
    this.savedX = init.x;
    this.savedZ = init.z;
  }

  /** Throws INTERFACE_BLOCKED while the interface is held by an activity (chat is never blocked). */
  assertFree(action: string): void {
    if (this.lock) throw new GameError('INTERFACE_BLOCKED', `Cannot ${action} during a ${this.lock}`);
  }

  /** Moves the player one tile; the caller keeps the spatial grid in sync. */
  placeAt(tile: Tile): void {
    this.x = this.state.x = tile.x;
    this.z = this.state.z = tile.z;
  }

  snapshot(): Record<string, unknown> {
    const s = this.state;
    return {
      kind: 'player', id: s.id, name: s.name, x: s.x, z: s.z, running: s.running, health: s.health,
      maxHealth: s.maxHealth, combatLevel: s.combatLevel, appearance: s.appearance, action: s.action,
    };
  }

  delta(): Record<string, unknown> {
    const s = this.state;
    return { kind: 'player', id: s.id, x: s.x, z: s.z, running: s.running, health: s.health, action: s.action };
  }

  /** The full own state sent as `player:sync`. */
  sync(): Record<string, unknown> {
    return {
      ...this.snapshot(),
      runEnergy: energyPercent(this.runEnergy),
      accountId: this.accountId,
      world: this.world,
      path: this.path.map((t) => ({ x: t.x, z: t.z })),
      inventory: this.containers.inventory,
      equipment: this.containers.equipment,
      bonuses: totalBonuses(this.containers.equipment, gameContext().data?.itemsById ?? new Map()),
    };
  }
}
