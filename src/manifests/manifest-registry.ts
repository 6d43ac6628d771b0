import type { z } from 'zod';
import { ItemsFile } from './schemas/items.ts';
import { DialogueFile, NpcsFile } from './schemas/npcs.ts';
import { PrayersFile } from './schemas/prayers.ts';
import { QuestsFile } from './schemas/quests.ts';
import { SkillUnlocksFile } from './schemas/skill-unlocks.ts';
import { AmmunitionFile, GatheringFile, RecipesFile, ResourcesFile, ToolsFile } from './schemas/skilling.ts';
import { ModelBoundsFile, StationsFile } from './schemas/stations.ts';
import { StoresFile } from './schemas/stores.ts';
import { TemplatesFile } from './schemas/templates.ts';
import {
  BiomesFile,
  BuildingsFile,
  MusicFile,
  SpawnsFile,
  TerrainFile,
  VegetationFile,
  WorldAreasFile,
} from './schemas/world.ts';

/**
 * Every manifest file the server knows, by path under /manifests/, with its schema.
 * This list is the manifest index: the loader fetches exactly these paths from the asset host
 * (a 404 means the host does not carry that file).
 */
export const MANIFEST_SCHEMAS = {
  'biomes.json': BiomesFile,
  'npcs.json': NpcsFile,
  'dialogue.json': DialogueFile,
  'prayers.json': PrayersFile,
  'stations.json': StationsFile,
  'items.json': ItemsFile,
  'items/weapons.json': ItemsFile,
  'items/armour.json': ItemsFile,
  'items/tools.json': ItemsFile,
  'items/resources.json': ItemsFile,
  'items/food.json': ItemsFile,
  'items/misc.json': ItemsFile,
  'ammunition.json': AmmunitionFile,
  'resources.json': ResourcesFile,
  'tools.json': ToolsFile,
  'world-areas.json': WorldAreasFile,
  'terrain.json': TerrainFile,
  'spawns.json': SpawnsFile,
  'stores.json': StoresFile,
  'music.json': MusicFile,
  'vegetation.json': VegetationFile,
  'buildings.json': BuildingsFile,
  'quests.json': QuestsFile,
  'skill-unlocks.json': SkillUnlocksFile,
  'templates.json': TemplatesFile,
  'model-bounds.json': ModelBoundsFile,
  'gathering/fishing.json': GatheringFile,
  'gathering/mining.json': GatheringFile,
  'gathering/woodcutting.json': GatheringFile,
  'recipes/cooking.json': RecipesFile,
  'recipes/smithing.json': RecipesFile,
  'recipes/runecrafting.json': RecipesFile,
  'recipes/fletching.json': RecipesFile,
  'recipes/firemaking.json': RecipesFile,
} as const satisfies Record<string, z.ZodType>;

export type ManifestPath = keyof typeof MANIFEST_SCHEMAS;
export type ManifestContent<P extends ManifestPath> = z.output<(typeof MANIFEST_SCHEMAS)[P]>;
export type ParsedManifests = { [P in ManifestPath]?: ManifestContent<P> };

export const MANIFEST_PATHS = Object.keys(MANIFEST_SCHEMAS) as ManifestPath[];

export function isManifestPath(path: string): path is ManifestPath {
  return Object.hasOwn(MANIFEST_SCHEMAS, path);
}

export const REQUIRED_MANIFESTS = ['npcs.json', 'world-areas.json', 'biomes.json', 'stores.json'] as const;
export const SINGLE_ITEMS_FILE = 'items.json';
export const SPLIT_ITEM_FILES = [
  'items/weapons.json',
  'items/tools.json',
  'items/resources.json',
  'items/food.json',
  'items/misc.json',
] as const;
/** All files that hold items (items.json, the split files and the optional armour file). */
export const ITEM_FILES = [SINGLE_ITEMS_FILE, ...SPLIT_ITEM_FILES, 'items/armour.json'] as const;

/** The required manifests that `has` reports absent (items.json counts as the split item files). */
export function missingRequiredManifests(has: (path: string) => boolean): string[] {
  const missing: string[] = REQUIRED_MANIFESTS.filter((path) => !has(path));
  if (!has(SINGLE_ITEMS_FILE)) {
    const missingSplit = SPLIT_ITEM_FILES.filter((path) => !has(path));
    if (missingSplit.length > 0) missing.push(`${SINGLE_ITEMS_FILE} (or ${missingSplit.join(', ')})`);
  }
  return missing;
}
