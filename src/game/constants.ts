/** Game constants shared by several areas of the rules (the tick length is in ticks.ts, tile distance in geometry.ts). */

/**
 * The world's health is this many times the level-scale hitpoints of the rules and manifests: a player's maximum
 * health is constitution × 10; NPC hitpoints, max hits and food heals are multiplied by it.
 */
export const HEALTH_SCALE = 10;
