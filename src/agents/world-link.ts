/**
 * The port through which the agents reach the running world: what the goal executor may read (the character, the
 * resource nodes and NPCs near it, its skills and activity) and the only ways it acts (`dispatch`: a message on the
 * character's own connection, through the same handlers the player's own messages use; `markChanged` after a stop).
 * Declared here, by the agents, in their own terms; the agents area of the world (rooms/world/features/agents.ts)
 * implements it over each WorldRoom (a process runs several numbered worlds) and links it to the server's GameContext
 * when it installs, unlinking it when the room stops. src/agents never imports the rooms.
 */
import type { GameContext } from '../context.ts';
import type { Containers } from '../db/item-transaction.ts';
import type { Skill } from '../game/skills.ts';
import type { BlockedTiles } from '../manifests/blocked-tiles.ts';
import type { GameData } from '../manifests/game-data.ts';
import type { Tile } from './planning.ts';

/** A character in the world, as the executor sees it. */
export interface AgentCharacter extends Tile {
  readonly id: string;
  /** Tiles still to walk, nearest first (emptied to stop the character where it stands). */
  path: Tile[];
  /** Inventory and equipment as last committed to the database. */
  readonly containers: Containers;
  /** What holds the character's interface (an open trade), if anything. */
  readonly lock: string | undefined;
  /** Run energy in hundredths of a percent (src/game/run-energy.ts). */
  readonly runEnergy: number;
  readonly state: {
    action: string; readonly health: number; readonly maxHealth: number; readonly combatLevel: number;
    /** The run toggle. */
    readonly running: boolean;
  };
}

/** An entity near a tile: `kind` tells which (only `npc` and `resource` interest the executor). */
export interface NearbyEntity {
  readonly kind: string;
  readonly id: string;
  readonly x: number;
  readonly z: number;
}

export interface NearbyNpc extends NearbyEntity {
  readonly kind: 'npc';
  readonly state: { readonly npcId: string; readonly health: number; readonly action: string };
}

export interface NearbyResource extends NearbyEntity {
  readonly kind: 'resource';
  readonly state: { readonly resourceId: string; readonly depleted: boolean };
}

export type ActivityKind = 'gather' | 'process' | 'attack' | 'pray';

/** What the character is busy doing on the tick (gathering, fighting, …). */
export interface AgentActivity {
  readonly kind: ActivityKind;
  readonly targetId: string | undefined;
}

export interface AgentSkills {
  readonly levels: Readonly<Record<Skill, number>>;
  /** Experience in tenths of a point (src/game/experience.ts). */
  readonly xp: Readonly<Record<Skill, number>>;
}

export interface AgentWorld {
  readonly data: GameData;
  readonly blocked: BlockedTiles;
  /** The current game tick. */
  currentTick(): number;
  player(characterId: string): AgentCharacter | undefined;
  /** Visits every entity within `radius` tiles of (x, z). */
  forEachNear(x: number, z: number, radius: number, visit: (entity: NearbyEntity) => void): void;
  /**
   * Sends a message on the character's own connection as its client would: validation, rate limit, handler,
   * `error` event on refusal. Resolves once it was handled.
   */
  dispatch(character: AgentCharacter, type: string, data: unknown): Promise<void>;
  /** Observers in range hear about the character's new state on the next tick. */
  markChanged(character: AgentCharacter): void;
  activityOf(character: AgentCharacter): AgentActivity | undefined;
  /** The character's skills, or undefined while they are still loading (it is entering the world). */
  skillsOf(character: AgentCharacter): AgentSkills | undefined;
  /** Whether the character stands within reach of a bank booth or a banker (the bank's own rule). */
  isNearBank(character: AgentCharacter): boolean;
}

const worlds = new WeakMap<GameContext, Set<AgentWorld>>();

/** Called by the agents area when a world starts: the agents of this server act in `world` too. Returns the unlink (the world stopped). */
export function linkWorld(context: GameContext, world: AgentWorld): () => void {
  let linked = worlds.get(context);
  if (!linked) worlds.set(context, linked = new Set());
  const set = linked;
  set.add(world);
  return () => { set.delete(world); };
}

/** The running world (as the agents see it) the character is in, or undefined while it is in none of this server's worlds. */
export function worldOfCharacter(context: GameContext, characterId: string): AgentWorld | undefined {
  for (const world of worlds.get(context) ?? []) {
    if (world.player(characterId)) return world;
  }
  return undefined;
}
