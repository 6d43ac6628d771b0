import { computeBlockedTiles, placedStationTiles } from './blocked-tiles.ts';
import { GATHERING_FILES, RECIPE_FILES, type GameData } from './game-data.ts';
import type { ItemStack, TileRect } from './schemas/common.ts';
import { END } from './schemas/npcs.ts';
import type { SkillName } from './skills.ts';

/**
 * Checks that ids named in one manifest exist in another, and that placed things fit the world.
 * Returns one message per problem, each starting with the file it is in.
 */
export function crossReferenceProblems(data: GameData): string[] {
  const problems: string[] = [];
  const report = (file: string, message: string) => problems.push(`${file}: ${message}`);
  const items = data.itemsById;
  const checkItem = (file: string, where: string, itemId: string) => {
    if (!items.has(itemId)) report(file, `${where} names unknown item '${itemId}'`);
  };
  const checkStacks = (file: string, where: string, stacks: readonly ItemStack[]) => {
    for (const stack of stacks) checkItem(file, where, stack.itemId);
  };

  const coins = items.get('coins');
  if (!coins) report('items/misc.json', "the item 'coins' is missing");
  else if (!coins.stackable) report(data.itemFileById.get('coins') ?? 'items', "'coins' must be stackable");

  for (const npc of data.npcsById.values()) {
    for (const drop of npc.drops) checkItem('npcs.json', `drop table of npc '${npc.id}'`, drop.itemId);
    if (npc.drops.length > 0 && !npc.combat) report('npcs.json', `npc '${npc.id}' has drops but cannot be fought`);
    if (npc.dialogueId && !data.dialoguesById.has(npc.dialogueId)) {
      report('npcs.json', `npc '${npc.id}' names unknown dialogue '${npc.dialogueId}'`);
    }
  }

  for (const dialogue of data.dialoguesById.values()) {
    const where = `dialogue '${dialogue.id}'`;
    if (!data.npcsById.has(dialogue.npcId)) report('dialogue.json', `${where} names unknown npc '${dialogue.npcId}'`);
    const nodeIds = new Set(dialogue.nodes.map((n) => n.id));
    if (!nodeIds.has(dialogue.start)) report('dialogue.json', `${where} starts at unknown node '${dialogue.start}'`);
    for (const node of dialogue.nodes) {
      const targets = node.options ? node.options.map((o) => o.next) : [node.next];
      for (const next of targets) {
        if (next !== undefined && next !== END && !nodeIds.has(next)) {
          report('dialogue.json', `${where} node '${node.id}' leads to unknown node '${next}'`);
        }
      }
      const action = node.action;
      if (action?.type === 'openStore' && !data.storesById.has(action.storeId)) {
        report('dialogue.json', `${where} node '${node.id}' opens unknown store '${action.storeId}'`);
      }
      if ((action?.type === 'startQuest' || action?.type === 'advanceQuest') && !data.questsById.has(action.questId)) {
        report('dialogue.json', `${where} node '${node.id}' names unknown quest '${action.questId}'`);
      }
      const advanced = action?.type === 'advanceQuest' ? data.questsById.get(action.questId) : undefined;
      if (action?.type === 'advanceQuest' && advanced && (action.stage < 2 || action.stage >= advanced.stages.length)) {
        report('dialogue.json', `${where} node '${node.id}' advances '${action.questId}' to stage ${action.stage}, which it cannot reach by an advance`);
      }
    }
  }

  for (const store of data.storesById.values()) {
    const where = `store '${store.id}'`;
    if (!data.npcsById.has(store.npcId)) report('stores.json', `${where} names unknown npc '${store.npcId}'`);
    if (!data.areasById.has(store.areaId)) report('stores.json', `${where} names unknown area '${store.areaId}'`);
    for (const entry of store.stock) {
      const item = items.get(entry.itemId);
      if (!item) report('stores.json', `stock of ${where} names unknown item '${entry.itemId}'`);
      else if (!item.tradeable) report('stores.json', `${where} stocks untradeable item '${entry.itemId}'`);
    }
  }

  for (const station of data.stationsById.values()) {
    if (!data.modelBoundsById.has(station.model)) {
      report('stations.json', `station '${station.id}' names model '${station.model}' missing from model-bounds.json`);
    }
  }
  if (data.modelBoundsTileSize !== null && data.modelBoundsTileSize !== data.world.tileSize) {
    report('model-bounds.json', `tileSize ${data.modelBoundsTileSize} differs from world-areas.json (${data.world.tileSize})`);
  }

  for (const tool of data.toolsByItemId.values()) checkItem('tools.json', `tool entry`, tool.itemId);
  for (const ammo of data.ammunitionByItemId.values()) {
    checkItem('ammunition.json', 'ammunition entry', ammo.itemId);
    for (const weaponId of ammo.weaponIds) checkItem('ammunition.json', `weapons of '${ammo.itemId}'`, weaponId);
  }

  const toolTypes = new Set([...data.toolsByItemId.values()].map((t) => t.type));
  for (const [skill, file] of Object.entries(GATHERING_FILES)) {
    for (const action of data.gathering[skill as keyof typeof GATHERING_FILES]) {
      const where = `action '${action.id}'`;
      const resource = data.resourcesById.get(action.resourceId);
      if (!resource) report(file, `${where} names unknown resource '${action.resourceId}'`);
      else if (resource.skill !== skill) report(file, `${where} uses resource '${resource.id}' of skill ${resource.skill}`);
      if (!toolTypes.has(action.tool)) report(file, `${where} needs a '${action.tool}' but tools.json has none`);
      checkStacks(file, `outputs of ${where}`, action.outputs);
      checkStacks(file, `consumables of ${where}`, action.consumes);
    }
  }

  const stationTypes = new Set([...data.stationsById.values()].map((s) => s.type));
  for (const [skill, file] of Object.entries(RECIPE_FILES)) {
    for (const recipe of data.recipes[skill as keyof typeof RECIPE_FILES]) {
      const where = `recipe '${recipe.id}'`;
      checkStacks(file, `inputs of ${where}`, recipe.inputs);
      checkStacks(file, `outputs of ${where}`, recipe.outputs);
      for (const toolId of recipe.tools) checkItem(file, `tools of ${where}`, toolId);
      if (recipe.failure) checkItem(file, `failure of ${where}`, recipe.failure.itemId);
      if (recipe.station !== null && !stationTypes.has(recipe.station)) {
        report(file, `${where} needs a '${recipe.station}' station but stations.json has none`);
      }
    }
  }

  for (const quest of data.questsById.values()) {
    const where = `quest '${quest.id}'`;
    if (!data.npcsById.has(quest.startNpcId)) report('quests.json', `${where} starts at unknown npc '${quest.startNpcId}'`);
    for (const required of quest.requirements.quests) {
      if (!data.questsById.has(required)) report('quests.json', `${where} requires unknown quest '${required}'`);
    }
    checkStacks('quests.json', `rewards of ${where}`, quest.rewards.items);
    for (const stage of quest.stages) {
      checkStacks('quests.json', `stage ${stage.stage} of ${where}`, [...stage.completeWhen?.holding ?? [], ...stage.handIn ?? []]);
    }
  }

  for (const template of data.templatesById.values()) {
    const where = `template '${template.id}'`;
    checkStacks('templates.json', `inventory of ${where}`, template.inventory);
    for (const [slot, itemId] of Object.entries(template.equipment)) {
      const item = items.get(itemId);
      if (!item) report('templates.json', `equipment of ${where} names unknown item '${itemId}'`);
      else if (item.equipment?.slot !== slot) report('templates.json', `${where} wears '${itemId}' in slot ${slot}`);
      else {
        for (const [skill, level] of Object.entries(item.equipment.requirements)) {
          const has = template.skills[skill as SkillName] ?? (skill === 'constitution' ? 10 : 1);
          if (has < (level ?? 1)) report('templates.json', `${where} cannot wear '${itemId}' (needs ${skill} ${level})`);
        }
      }
    }
  }

  for (const biome of data.biomesById.values()) {
    for (const id of biome.vegetationIds) {
      if (!data.vegetationById.has(id)) report('biomes.json', `biome '${biome.id}' names unknown vegetation '${id}'`);
    }
  }

  problems.push(...worldPlacementProblems(data));
  return problems;
}

function worldPlacementProblems(data: GameData): string[] {
  const problems: string[] = [];
  const { width, depth, home } = data.world;
  const inWorld = (r: TileRect) => r.maxX < width && r.maxZ < depth;
  const inRect = (r: TileRect, x: number, z: number) => x >= r.minX && x <= r.maxX && z >= r.minZ && z <= r.maxZ;

  for (const area of data.areasById.values()) {
    const where = `area '${area.id}'`;
    if (!inWorld(area.bounds)) problems.push(`world-areas.json: ${where} extends outside the ${width}x${depth} world`);
    if (!data.biomesById.has(area.biomeId)) problems.push(`world-areas.json: ${where} names unknown biome '${area.biomeId}'`);
    if (area.musicTrackId && !data.musicTracksById.has(area.musicTrackId)) {
      problems.push(`world-areas.json: ${where} names unknown music track '${area.musicTrackId}'`);
    }
  }
  const homeArea = data.areasById.get(home.areaId);
  if (!homeArea) problems.push(`world-areas.json: home names unknown area '${home.areaId}'`);
  else if (!inRect(homeArea.bounds, home.x, home.z)) problems.push(`world-areas.json: home tile is outside area '${home.areaId}'`);

  for (const region of [...data.terrain.water, ...data.terrain.obstacles]) {
    if (!inWorld(region.bounds)) problems.push(`terrain.json: '${region.name}' extends outside the world`);
  }
  for (const building of data.buildingsById.values()) {
    const where = `building '${building.id}'`;
    if (!data.areasById.has(building.areaId)) problems.push(`buildings.json: ${where} names unknown area '${building.areaId}'`);
    if (!inWorld(building.footprint)) problems.push(`buildings.json: ${where} extends outside the world`);
    const f = building.footprint;
    for (const door of building.doors) {
      const onEdge = inRect(f, door.x, door.z) && (door.x === f.minX || door.x === f.maxX || door.z === f.minZ || door.z === f.maxZ);
      if (!onEdge) problems.push(`buildings.json: ${where} has a door at ${door.x},${door.z} off its wall`);
    }
  }

  const spawns = data.spawns;
  for (const s of spawns.stations) {
    if (!data.stationsById.has(s.stationId)) problems.push(`spawns.json: unknown station '${s.stationId}' at ${s.x},${s.z}`);
    if (!inWorld(placedStationTiles(data, s))) problems.push(`spawns.json: station '${s.stationId}' at ${s.x},${s.z} extends outside the world`);
  }
  for (const s of spawns.resources) {
    if (!data.resourcesById.has(s.resourceId)) problems.push(`spawns.json: unknown resource '${s.resourceId}' at ${s.x},${s.z}`);
    if (s.x >= width || s.z >= depth) problems.push(`spawns.json: resource '${s.resourceId}' at ${s.x},${s.z} is outside the world`);
  }
  const blocked = computeBlockedTiles(data);
  for (const s of spawns.npcs) {
    if (!data.npcsById.has(s.npcId)) problems.push(`spawns.json: unknown npc '${s.npcId}' at ${s.x},${s.z}`);
    if (blocked.isBlocked(s.x, s.z)) problems.push(`spawns.json: npc '${s.npcId}' stands on a blocked tile ${s.x},${s.z}`);
  }
  if (homeArea && blocked.isBlocked(home.x, home.z)) problems.push(`world-areas.json: home tile ${home.x},${home.z} is blocked`);
  return problems;
}
