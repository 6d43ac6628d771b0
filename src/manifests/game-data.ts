import { ITEM_FILES, type ParsedManifests } from './manifest-registry.ts';
import type { Item } from './schemas/items.ts';
import type { Dialogue, Npc } from './schemas/npcs.ts';
import type { Prayer } from './schemas/prayers.ts';
import type { Quest } from './schemas/quests.ts';
import type { Ammunition, GatheringAction, Recipe, ResourceNode, Tool } from './schemas/skilling.ts';
import type { ModelBoundsEntry, Station } from './schemas/stations.ts';
import type { Store } from './schemas/stores.ts';
import type { CharacterTemplate } from './schemas/templates.ts';
import type {
  Area,
  Biome,
  Building,
  MusicTrack,
  SpawnsFile,
  TerrainFile,
  Vegetation,
  WorldAreasFile,
} from './schemas/world.ts';
import { sortSkillUnlocks, type SkillUnlocks } from './skill-unlocks.ts';

export const GATHERING_FILES = {
  woodcutting: 'gathering/woodcutting.json',
  mining: 'gathering/mining.json',
  fishing: 'gathering/fishing.json',
} as const;
export type GatheringSkill = keyof typeof GATHERING_FILES;

export const RECIPE_FILES = {
  cooking: 'recipes/cooking.json',
  smithing: 'recipes/smithing.json',
  runecrafting: 'recipes/runecrafting.json',
  fletching: 'recipes/fletching.json',
  firemaking: 'recipes/firemaking.json',
} as const;
export type RecipeSkill = keyof typeof RECIPE_FILES;

/** The validated game data, with lookups by id. Built once at startup; treat as read-only. */
export interface GameData {
  world: Pick<WorldAreasFile, 'tileSize' | 'width' | 'depth' | 'home'>;
  itemsById: ReadonlyMap<string, Item>;
  /** Which file each item came from. */
  itemFileById: ReadonlyMap<string, string>;
  npcsById: ReadonlyMap<string, Npc>;
  dialoguesById: ReadonlyMap<string, Dialogue>;
  prayersById: ReadonlyMap<string, Prayer>;
  stationsById: ReadonlyMap<string, Station>;
  modelBoundsById: ReadonlyMap<string, ModelBoundsEntry>;
  modelBoundsTileSize: number | null;
  resourcesById: ReadonlyMap<string, ResourceNode>;
  toolsByItemId: ReadonlyMap<string, Tool>;
  ammunitionByItemId: ReadonlyMap<string, Ammunition>;
  areasById: ReadonlyMap<string, Area>;
  biomesById: ReadonlyMap<string, Biome>;
  vegetationById: ReadonlyMap<string, Vegetation>;
  buildingsById: ReadonlyMap<string, Building>;
  storesById: ReadonlyMap<string, Store>;
  questsById: ReadonlyMap<string, Quest>;
  musicTracksById: ReadonlyMap<string, MusicTrack>;
  templatesById: ReadonlyMap<string, CharacterTemplate>;
  terrain: TerrainFile;
  spawns: SpawnsFile;
  gathering: Readonly<Record<GatheringSkill, readonly GatheringAction[]>>;
  recipes: Readonly<Record<RecipeSkill, readonly Recipe[]>>;
  skillUnlocks: SkillUnlocks;
}

/** Builds GameData from parsed files. Duplicate ids across item files are reported as problems. */
export function buildGameData(parsed: ParsedManifests): { data: GameData; problems: string[] } {
  const problems: string[] = [];
  const itemsById = new Map<string, Item>();
  const itemFileById = new Map<string, string>();
  for (const file of ITEM_FILES) {
    for (const item of parsed[file] ?? []) {
      const earlier = itemFileById.get(item.id);
      if (earlier !== undefined) problems.push(`${file}: item '${item.id}' is already defined in ${earlier}`);
      else {
        itemsById.set(item.id, item);
        itemFileById.set(item.id, file);
      }
    }
  }
  const worldAreas = parsed['world-areas.json'];
  const modelBounds = parsed['model-bounds.json'];
  const data: GameData = {
    world: worldAreas
      ? { tileSize: worldAreas.tileSize, width: worldAreas.width, depth: worldAreas.depth, home: worldAreas.home }
      : { tileSize: 1, width: 0, depth: 0, home: { areaId: '', x: 0, z: 0 } },
    itemsById,
    itemFileById,
    npcsById: byId(parsed['npcs.json']),
    dialoguesById: byId(parsed['dialogue.json']),
    prayersById: byId(parsed['prayers.json']),
    stationsById: byId(parsed['stations.json']),
    modelBoundsById: byId(modelBounds?.models),
    modelBoundsTileSize: modelBounds?.tileSize ?? null,
    resourcesById: byId(parsed['resources.json']),
    toolsByItemId: byKey(parsed['tools.json'], (tool) => tool.itemId),
    ammunitionByItemId: byKey(parsed['ammunition.json'], (ammo) => ammo.itemId),
    areasById: byId(worldAreas?.areas),
    biomesById: byId(parsed['biomes.json']),
    vegetationById: byId(parsed['vegetation.json']),
    buildingsById: byId(parsed['buildings.json']),
    storesById: byId(parsed['stores.json']),
    questsById: byId(parsed['quests.json']),
    musicTracksById: byId(parsed['music.json']),
    templatesById: byId(parsed['templates.json']),
    terrain: parsed['terrain.json'] ?? { water: [], obstacles: [] },
    spawns: parsed['spawns.json'] ?? { npcs: [], resources: [], stations: [] },
    gathering: mapValues(GATHERING_FILES, (file) => parsed[file] ?? []),
    recipes: mapValues(RECIPE_FILES, (file) => parsed[file] ?? []),
    skillUnlocks: sortSkillUnlocks(parsed['skill-unlocks.json']),
  };
  problems.push(...duplicateKeys('tools.json', parsed['tools.json'], (tool) => tool.itemId));
  problems.push(...duplicateKeys('ammunition.json', parsed['ammunition.json'], (ammo) => ammo.itemId));
  return { data, problems };
}

function byId<T extends { id: string }>(list: readonly T[] | undefined): ReadonlyMap<string, T> {
  return byKey(list, (entry) => entry.id);
}

function byKey<T>(list: readonly T[] | undefined, key: (entry: T) => string): ReadonlyMap<string, T> {
  return new Map((list ?? []).map((entry) => [key(entry), entry]));
}

function duplicateKeys<T>(file: string, list: readonly T[] | undefined, key: (entry: T) => string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const entry of list ?? []) {
    const k = key(entry);
    if (seen.has(k)) problems.push(`${file}: '${k}' is listed twice`);
    seen.add(k);
  }
  return problems;
}

function mapValues<K extends string, V, R>(record: Record<K, V>, fn: (value: V) => R): Record<K, R> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v as V)])) as Record<K, R>;
}
