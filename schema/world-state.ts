/**
 * The WorldRoom's synchronised state (data only). Entity maps are view-tagged: an SDK client receives only the
 * entities its StateView holds, i.e. those inside its area of interest.
 */
import { schema, t, type SchemaType } from '@colyseus/schema';

export const PlayerState = schema({
  id: t.string(),
  name: t.string(),
  x: t.int32(),
  z: t.int32(),
  running: t.boolean(),
  health: t.int32(),
  maxHealth: t.int32(),
  combatLevel: t.int32(),
  appearance: t.string(),
  action: t.string(),
}, 'PlayerState');
export type PlayerState = SchemaType<typeof PlayerState>;

export const NpcState = schema({
  id: t.string(),
  npcId: t.string(),
  name: t.string(),
  x: t.int32(),
  z: t.int32(),
  health: t.int32(),
  maxHealth: t.int32(),
  action: t.string(),
}, 'NpcState');
export type NpcState = SchemaType<typeof NpcState>;

export const ResourceNodeState = schema({
  id: t.string(),
  resourceId: t.string(),
  x: t.int32(),
  z: t.int32(),
  depleted: t.boolean(),
}, 'ResourceNodeState');
export type ResourceNodeState = SchemaType<typeof ResourceNodeState>;

export const GroundItemState = schema({
  id: t.string(),
  itemId: t.string(),
  quantity: t.int32(),
  x: t.int32(),
  z: t.int32(),
  /** "" when no one owns it (a schema string cannot be null; /ws says null). */
  ownerId: t.string(),
  /** When it becomes visible to everyone, and when it is deleted (ms since the epoch). */
  publicAt: t.float64(),
  expiresAt: t.float64(),
}, 'GroundItemState');
export type GroundItemState = SchemaType<typeof GroundItemState>;

/** A gravestone holding a dead player's lost items until its owner claims them or it crumbles (expiresAt, ms). */
export const GravestoneState = schema({
  id: t.string(),
  ownerId: t.string(),
  ownerName: t.string(),
  x: t.int32(),
  z: t.int32(),
  expiresAt: t.float64(),
}, 'GravestoneState');
export type GravestoneState = SchemaType<typeof GravestoneState>;

/** A lit fire (a cooking spot) until it burns out into its remains at expiresAt (ms). */
export const FireState = schema({
  id: t.string(),
  x: t.int32(),
  z: t.int32(),
  expiresAt: t.float64(),
}, 'FireState');
export type FireState = SchemaType<typeof FireState>;

export const WorldState = schema({
  tick: t.uint32(),
  players: t.map(PlayerState).view(),
  npcs: t.map(NpcState).view(),
  resources: t.map(ResourceNodeState).view(),
  groundItems: t.map(GroundItemState).view(),
  gravestones: t.map(GravestoneState).view(),
  fires: t.map(FireState).view(),
}, 'WorldState');
export type WorldState = SchemaType<typeof WorldState>;
