import { schema, t, type SchemaType } from '@colyseus/schema';

export const PlayerState = schema({
  id: t.string(),
  name: t.string(),
  x: t.number(),
  z: t.number(),
  health: t.number(),
  combatLevel: t.number(),
}, 'PlayerState');
export type PlayerState = SchemaType<typeof PlayerState>;

export const WorldState = schema({
  tick: t.number(),
  players: t.map(PlayerState),
}, 'WorldState');
export type WorldState = SchemaType<typeof WorldState>;
