/** NPCs and resource nodes spawned from the manifests, tracked for the area of interest. */
import { NpcState, ResourceNodeState } from '../../schema/world-state.ts';
import { HEALTH_SCALE } from '../../src/game/constants.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { InterestScratch, type TrackedEntity } from './interest.ts';

export class NpcEntity extends InterestScratch implements TrackedEntity {
  readonly kind = 'npc' as const;
  readonly id: string;
  readonly state: NpcState;
  /** The tile, also in `state` (plain fields for the area of interest; see OnlinePlayer). Set through placeAt. */
  x: number;
  z: number;

  constructor(id: string, npcId: string, name: string, x: number, z: number, health: number) {
    super();
    this.id = id;
    this.x = x;
    this.z = z;
    this.state = new NpcState();
    Object.assign(this.state, { id, npcId, name, x, z, health, maxHealth: health, action: 'idle' });
  }

  /** Moves the NPC; the caller keeps the spatial grid in sync. */
  placeAt(tile: { x: number; z: number }): void {
    this.x = this.state.x = tile.x;
    this.z = this.state.z = tile.z;
  }

  snapshot(): Record<string, unknown> {
    const s = this.state;
    return { kind: 'npc', id: s.id, npcId: s.npcId, name: s.name, x: s.x, z: s.z, health: s.health, maxHealth: s.maxHealth, action: s.action };
  }

  delta(): Record<string, unknown> {
    const s = this.state;
    return { kind: 'npc', id: s.id, x: s.x, z: s.z, health: s.health, action: s.action };
  }
}

export class ResourceEntity extends InterestScratch implements TrackedEntity {
  readonly kind = 'resource' as const;
  readonly id: string;
  readonly state: ResourceNodeState;
  readonly x: number;
  readonly z: number;

  constructor(id: string, resourceId: string, x: number, z: number) {
    super();
    this.id = id;
    this.x = x;
    this.z = z;
    this.state = new ResourceNodeState();
    Object.assign(this.state, { id, resourceId, x, z, depleted: false });
  }

  snapshot(): Record<string, unknown> {
    const s = this.state;
    return { kind: 'resource', id: s.id, resourceId: s.resourceId, x: s.x, z: s.z, depleted: s.depleted };
  }

  delta(): Record<string, unknown> {
    return { kind: 'resource', id: this.state.id, depleted: this.state.depleted };
  }
}

export function spawnNpcs(data: GameData): NpcEntity[] {
  return data.spawns.npcs.map((spawn, index) => {
    const npc = data.npcsById.get(spawn.npcId)!;
    return new NpcEntity(`npc-${index}`, spawn.npcId, npc.name, spawn.x, spawn.z, (npc.combat?.hitpoints ?? 1) * HEALTH_SCALE);
  });
}

export function spawnResources(data: GameData): ResourceEntity[] {
  return data.spawns.resources.map((spawn, index) => new ResourceEntity(`res-${index}`, spawn.resourceId, spawn.x, spawn.z));
}
