import assert from 'node:assert/strict';
import { readManifestDir } from '../../src/manifests/manifest-cache.ts';
import { MANIFEST_PATHS, REQUIRED_MANIFESTS, SPLIT_ITEM_FILES } from '../../src/manifests/manifest-registry.ts';
import { EQUIPMENT_SLOTS } from '../../src/manifests/schemas/items.ts';
import { SKILL_NAMES } from '../../src/manifests/skills.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { validateManifests } from '../../src/manifests/validate-manifests.ts';
import { BUNDLED_MANIFESTS } from './support/temp-dir.ts';

describe('bundled world manifests', () => {
  let files: Map<string, Buffer>;
  let data: GameData;

  before(async () => {
    files = await readManifestDir(BUNDLED_MANIFESTS);
    data = validateManifests(files);
  });

  it('ships more than 25 known manifest files including the required set', () => {
    assert.ok(files.size > 25, `only ${files.size} files`);
    for (const path of [...REQUIRED_MANIFESTS, ...SPLIT_ITEM_FILES]) assert.ok(files.has(path), `${path} missing`);
    assert.ok(!files.has('items.json'), 'the world uses the split item files');
    const expected = MANIFEST_PATHS.filter((p) => p !== 'items.json');
    assert.deepEqual([...files.keys()].sort(), [...expected].sort());
  });

  it('has a home spawn in a town, a bank area and a player-versus-player area', () => {
    const home = data.areasById.get(data.world.home.areaId);
    assert.equal(home?.type, 'town');
    assert.equal(data.world.width, 200);
    assert.equal(data.world.tileSize, 1);
    assert.ok([...data.areasById.values()].some((a) => a.type === 'bank'));
    assert.ok([...data.areasById.values()].some((a) => a.pvp));
  });

  it('has a banker, a general store, a second shop and bank, anvil, furnace and range stations', () => {
    assert.ok([...data.npcsById.values()].some((n) => n.role === 'banker'));
    const stores = [...data.storesById.values()];
    assert.ok(stores.some((s) => s.kind === 'general'));
    assert.ok(stores.length >= 2);
    const placedTypes = new Set(data.spawns.stations.map((s) => data.stationsById.get(s.stationId)?.type));
    for (const type of ['bank', 'anvil', 'furnace', 'range'] as const) assert.ok(placedTypes.has(type), `no ${type} placed`);
  });

  it('has gathering at levels 1, 15 and 30 for woodcutting, mining and fishing, all placed in the world', () => {
    const placed = new Set(data.spawns.resources.map((r) => r.resourceId));
    for (const skill of ['woodcutting', 'mining', 'fishing'] as const) {
      const levels = new Set(data.gathering[skill].map((a) => a.level));
      for (const level of [1, 15, 30]) assert.ok(levels.has(level), `${skill} has no level-${level} action`);
      for (const action of data.gathering[skill]) assert.ok(placed.has(action.resourceId), `${action.resourceId} never spawns`);
    }
  });

  it('has fightable NPCs with drop tables and talking NPCs with dialogue trees', () => {
    const fighters = [...data.npcsById.values()].filter((n) => n.combat);
    assert.ok(fighters.length >= 4);
    assert.ok(fighters.every((n) => n.drops.length > 0));
    const talkers = [...data.npcsById.values()].filter((n) => n.dialogueId);
    assert.ok(talkers.length >= 4);
    assert.ok([...data.dialoguesById.values()].some((d) => d.nodes.some((n) => (n.options?.length ?? 0) >= 2)));
  });

  it('has 2-3 quests with stages, requirements and item, xp and quest-point rewards', () => {
    const quests = [...data.questsById.values()];
    assert.ok(quests.length >= 2 && quests.length <= 3);
    assert.ok(quests.every((q) => q.stages.length >= 2 && q.rewards.questPoints > 0));
    assert.ok(quests.some((q) => q.requirements.quests.length > 0));
    assert.ok(quests.some((q) => q.rewards.items.length > 0 && q.rewards.xp.length > 0));
  });

  it('has items covering coins, untradeable quest items, every equipment slot, two-handed weapons, food and bones', () => {
    const items = [...data.itemsById.values()];
    assert.equal(data.itemsById.get('coins')?.stackable, true);
    assert.ok(items.some((i) => !i.tradeable && i.questItem));
    const slots = new Set(items.map((i) => i.equipment?.slot));
    for (const slot of EQUIPMENT_SLOTS) assert.ok(slots.has(slot), `no item for slot ${slot}`);
    assert.ok(items.some((i) => i.equipment?.twoHanded));
    assert.ok(items.some((i) => i.heal));
    assert.ok(items.some((i) => i.prayerXp));
  });

  it('has prayers with levels, drain rates and effects, and unlocks for all 17 skills', () => {
    assert.ok(data.prayersById.size >= 5);
    assert.ok([...data.prayersById.values()].some((p) => p.effects.protectFrom));
    for (const skill of SKILL_NAMES) assert.ok(data.skillUnlocks[skill].length > 0, `${skill} has no unlocks`);
  });
});
