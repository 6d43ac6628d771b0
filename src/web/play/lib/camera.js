// Screen ↔ tile arithmetic for a view centred on a point of the world (the player). A tile (x, z) covers
// [x, x + 1) × [z, z + 1) in world units; z grows downwards on screen, as on the operator's map. No DOM.

/**
 * @typedef {{ centerX: number, centerZ: number, tilePx: number, width: number, height: number }} View
 *   centerX/Z: the world point at the middle of the canvas (fractional: the player as drawn)
 */

/** The canvas pixel of a world point. */
export function toScreen(view, x, z) {
  return { px: (x - view.centerX) * view.tilePx + view.width / 2, py: (z - view.centerZ) * view.tilePx + view.height / 2 };
}

/** The world point under a canvas pixel (fractional). */
export function toWorld(view, px, py) {
  return { x: (px - view.width / 2) / view.tilePx + view.centerX, z: (py - view.height / 2) / view.tilePx + view.centerZ };
}

/** The tile under a canvas pixel. */
export function tileAt(view, px, py) {
  const point = toWorld(view, px, py);
  return { x: Math.floor(point.x), z: Math.floor(point.z) };
}

/** The tiles the view shows, clamped to the world: inclusive bounds. */
export function visibleTiles(view, width, depth) {
  const top = toWorld(view, 0, 0);
  const bottom = toWorld(view, view.width, view.height);
  return {
    minX: Math.max(0, Math.floor(top.x)), minZ: Math.max(0, Math.floor(top.z)),
    maxX: Math.min(width - 1, Math.ceil(bottom.x)), maxZ: Math.min(depth - 1, Math.ceil(bottom.z)),
  };
}

/** Chebyshev distance between two tiles (the game's "within N tiles"). */
export function tileDistance(a, b) {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}

/** Chebyshev distance from a tile to a rectangle of tiles (a station's footprint). */
export function distanceToRect(tile, rect) {
  const dx = tile.x < rect.minX ? rect.minX - tile.x : tile.x > rect.maxX ? tile.x - rect.maxX : 0;
  const dz = tile.z < rect.minZ ? rect.minZ - tile.z : tile.z > rect.maxZ ? tile.z - rect.maxZ : 0;
  return Math.max(dx, dz);
}
