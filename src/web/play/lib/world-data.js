// The world as the manifests the server serves describe it (docs/manifests.md): the tile map the page draws and
// walks on, placed stations, and lookups by id (items, NPC kinds, resource kinds, stores, prayers). No DOM.
//
// Which tiles cannot be walked on follows docs/manifests.md: water and obstacle rectangles (terrain.json), the
// outer ring of each building's footprint except its doors (buildings.json), the footprint of every placed station
// (stations.json × model-bounds.json: each side max(1, ceil(length × modelScale / tileSize − 1e-6)) tiles, from
// the spawn tile; 90/270° swap them) and resource nodes whose kind `blocksTile` (spawns.json, resources.json).

/** Tile kinds, drawn in this order of precedence. */
export const Tile = Object.freeze({ GROUND: 0, WATER: 1, OBSTACLE: 2, WALL: 3, STATION: 4, FLOOR: 5 });

/** The manifests the page reads (items come from `RestClient.items()`). */
export const WORLD_MANIFESTS = ['world-areas.json', 'terrain.json', 'buildings.json', 'spawns.json', 'stations.json',
  'model-bounds.json', 'resources.json', 'npcs.json', 'stores.json', 'prayers.json', 'biomes.json'];

const EPSILON = 1e-6;

function tilesOf(meters, tileSize) {
  return Math.max(1, Math.ceil(meters / tileSize - EPSILON));
}

/** A placed station's footprint in tiles (docs/manifests.md "Rounding rule"). */
export function stationFootprint(dimensions, modelScale, tileSize, rotation = 0) {
  const width = tilesOf(dimensions.x * modelScale, tileSize);
  const depth = tilesOf(dimensions.z * modelScale, tileSize);
  return rotation === 90 || rotation === 270 ? { width: depth, depth: width } : { width, depth };
}

function byId(list) {
  return new Map((list ?? []).map((entry) => [entry.id, entry]));
}

/**
 * @param {Record<string, any>} manifests the parsed files of WORLD_MANIFESTS by name, plus `items` (an array)
 */
export function buildWorldData(manifests) {
  const areasFile = manifests['world-areas.json'];
  const { width, depth } = areasFile;
  const tileSize = areasFile.tileSize ?? 1;
  const kinds = new Uint8Array(width * depth);
  const blocked = new Uint8Array(width * depth);
  const inside = (x, z) => x >= 0 && z >= 0 && x < width && z < depth;
  const mark = (x, z, kind, blocks) => {
    if (!inside(x, z)) return;
    if (kind !== undefined) kinds[z * width + x] = kind;
    if (blocks) blocked[z * width + x] = 1;
  };
  const rect = (r, kind, blocks) => {
    for (let z = r.minZ; z <= r.maxZ; z++) for (let x = r.minX; x <= r.maxX; x++) mark(x, z, kind, blocks);
  };

  const terrain = manifests['terrain.json'] ?? { water: [], obstacles: [] };
  for (const region of terrain.water ?? []) rect(region.bounds, Tile.WATER, true);
  for (const region of terrain.obstacles ?? []) rect(region.bounds, Tile.OBSTACLE, true);

  const buildings = manifests['buildings.json'] ?? [];
  for (const building of buildings) {
    const { minX, minZ, maxX, maxZ } = building.footprint;
    const doors = new Set((building.doors ?? []).map((d) => `${d.x},${d.z}`));
    for (let z = minZ; z <= maxZ; z++) {
      for (let x = minX; x <= maxX; x++) {
        const edge = x === minX || x === maxX || z === minZ || z === maxZ;
        if (!edge) mark(x, z, Tile.FLOOR, false);
        else if (!doors.has(`${x},${z}`)) mark(x, z, Tile.WALL, true);
        else mark(x, z, Tile.FLOOR, false);
      }
    }
  }

  const stationKinds = byId(manifests['stations.json']);
  const models = byId(manifests['model-bounds.json']?.models);
  const spawns = manifests['spawns.json'] ?? { npcs: [], resources: [], stations: [] };
  const stations = (spawns.stations ?? []).map((spawn, index) => {
    const kind = stationKinds.get(spawn.stationId);
    const model = kind ? models.get(kind.model) : undefined;
    const size = kind && model ? stationFootprint(model.dimensions, kind.modelScale, tileSize, spawn.rotation) : { width: 1, depth: 1 };
    const bounds = { minX: spawn.x, minZ: spawn.z, maxX: spawn.x + size.width - 1, maxZ: spawn.z + size.depth - 1 };
    rect(bounds, Tile.STATION, true);
    // Its entity id in events: `station-<index in spawns.stations>` (docs/skills.md "Processing").
    return { id: `station-${index}`, stationId: spawn.stationId, name: kind?.name ?? spawn.stationId, type: kind?.type ?? 'unknown', bounds };
  });

  const resourceKinds = byId(manifests['resources.json']);
  for (const spawn of spawns.resources ?? []) {
    if (resourceKinds.get(spawn.resourceId)?.blocksTile) mark(spawn.x, spawn.z, undefined, true);
  }

  const biomes = byId(manifests['biomes.json']);
  const areas = (areasFile.areas ?? []).map((area) => ({ ...area, color: biomes.get(area.biomeId)?.groundColor }));
  // The smallest area holding a tile names it (towns sit inside larger regions).
  const bySize = [...areas].sort((a, b) => areaSize(a.bounds) - areaSize(b.bounds));

  const npcKinds = byId(manifests['npcs.json']);
  const items = byId(manifests.items);
  const stores = manifests['stores.json'] ?? [];
  return {
    width, depth, tileSize, home: areasFile.home, areas, stations,
    kinds, blocked,
    items,
    npcKinds, resourceKinds, stationKinds,
    storesByNpc: new Map(stores.map((store) => [store.npcId, store])),
    prayers: manifests['prayers.json'] ?? [],
    kindAt: (x, z) => (inside(x, z) ? kinds[z * width + x] : Tile.OBSTACLE),
    /** Tiles outside the world count as blocked, as on the server. */
    isBlocked: (x, z) => !inside(x, z) || blocked[z * width + x] === 1,
    areaAt: (x, z) => bySize.find((a) => x >= a.bounds.minX && x <= a.bounds.maxX && z >= a.bounds.minZ && z <= a.bounds.maxZ),
    stationAt: (x, z) => stations.find((s) => x >= s.bounds.minX && x <= s.bounds.maxX && z >= s.bounds.minZ && z <= s.bounds.maxZ),
    /** An item's name, or its id made readable when the manifests lack it. */
    itemName: (itemId) => items.get(itemId)?.name ?? String(itemId).replace(/_/g, ' '),
  };
}

function areaSize(b) {
  return (b.maxX - b.minX + 1) * (b.maxZ - b.minZ + 1);
}

/** Loads every manifest the page needs through a RestClient (or anything with `manifest(path)` and `items()`). */
export async function loadWorldData(rest) {
  const files = await Promise.all(WORLD_MANIFESTS.map(async (name) => [name, await rest.manifest(name)]));
  const manifests = Object.fromEntries(files);
  manifests.items = await rest.items();
  return buildWorldData(manifests);
}
