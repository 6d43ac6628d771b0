// The static layer of the map: every tile of the world drawn once, small, into an offscreen canvas that the
// renderer scales up each frame (one drawImage instead of a thousand rectangles).

import { Tile } from '../lib/world-data.js';

/** Pixels per tile in the offscreen layer (the view scales it up without smoothing). */
export const TERRAIN_PX = 8;

const COLORS = {
  ground: '#55703a', water: '#2d5f8a', obstacle: '#5b5148', wall: '#3b3430', floor: '#8a7559',
  station: { bank: '#c9a227', altar: '#d7d2e6', anvil: '#6d7379', furnace: '#a8502c', range: '#7a4a2a', 'rune-altar': '#7e57c2', unknown: '#777' },
};

/** Darker or lighter version of a #rrggbb colour (checkerboard shading so tiles read as tiles). */
function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift) => Math.max(0, Math.min(255, ((n >> shift) & 255) + amount));
  return `rgb(${channel(16)},${channel(8)},${channel(0)})`;
}

/** @param {ReturnType<import('../lib/world-data.js').buildWorldData>} world */
export function drawTerrain(world) {
  const layer = document.createElement('canvas');
  layer.width = world.width * TERRAIN_PX;
  layer.height = world.depth * TERRAIN_PX;
  const g = layer.getContext('2d');
  const groundCache = new Map();
  for (let z = 0; z < world.depth; z++) {
    for (let x = 0; x < world.width; x++) {
      const kind = world.kindAt(x, z);
      let color;
      if (kind === Tile.WATER) color = COLORS.water;
      else if (kind === Tile.OBSTACLE) color = COLORS.obstacle;
      else if (kind === Tile.WALL) color = COLORS.wall;
      else if (kind === Tile.FLOOR) color = COLORS.floor;
      else if (kind === Tile.STATION) color = COLORS.station[world.stationAt(x, z)?.type] ?? COLORS.station.unknown;
      else color = world.areaAt(x, z)?.color ?? COLORS.ground;
      const key = `${color}|${(x + z) & 1}`;
      let fill = groundCache.get(key);
      if (!fill) groundCache.set(key, (fill = shade(color.startsWith('#') ? color : '#55703a', (x + z) & 1 ? -6 : 4)));
      g.fillStyle = kind === Tile.GROUND || kind === Tile.FLOOR || kind === Tile.WATER ? fill : color;
      g.fillRect(x * TERRAIN_PX, z * TERRAIN_PX, TERRAIN_PX, TERRAIN_PX);
    }
  }
  // The home tile, where new characters and the dead appear.
  g.strokeStyle = 'rgba(255,255,255,0.6)';
  g.lineWidth = 1;
  g.strokeRect(world.home.x * TERRAIN_PX + 0.5, world.home.z * TERRAIN_PX + 0.5, TERRAIN_PX - 1, TERRAIN_PX - 1);
  return layer;
}
