import assert from 'node:assert/strict';
import { readManifestDir } from '../../src/manifests/manifest-cache.ts';
import { ManifestError } from '../../src/manifests/manifest-error.ts';
import { validateManifests } from '../../src/manifests/validate-manifests.ts';
import { BUNDLED_MANIFESTS } from './support/temp-dir.ts';

// Manifest JSON is edited freely in these tests.
type Json = any;

describe('manifest validation', () => {
  let bundled: Map<string, Buffer>;

  before(async () => {
    bundled = await readManifestDir(BUNDLED_MANIFESTS);
  });

  /** The bundled set with one file edited. */
  function withEdit(path: string, edit: (json: Json) => void, files: Map<string, Buffer> = bundled): Map<string, Buffer> {
    const json = JSON.parse(files.get(path)!.toString('utf8'));
    edit(json);
    return new Map(files).set(path, Buffer.from(JSON.stringify(json)));
  }

  function assertRejected(files: Map<string, Buffer>, ...fragments: string[]): ManifestError {
    let caught: unknown;
    try {
      validateManifests(files);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ManifestError, 'expected a ManifestError');
    for (const fragment of fragments) assert.match(caught.message, new RegExp(escape(fragment)));
    return caught;
  }

  it('accepts the bundled world', () => {
    assert.doesNotThrow(() => validateManifests(bundled));
  });

  it('names the file and the conflict markers when a file holds a merge conflict', () => {
    const text = bundled.get('npcs.json')!.toString('utf8');
    const broken = `<<<<<<< HEAD\n${text}=======\n[]\n>>>>>>> other\n`;
    const error = assertRejected(new Map(bundled).set('npcs.json', Buffer.from(broken)), 'npcs.json', 'merge-conflict markers', 'line 1');
    assert.equal(error.file, 'npcs.json');
  });

  it('names the file and the JSON error for invalid JSON', () => {
    assertRejected(new Map(bundled).set('prayers.json', Buffer.from('[{"id": ')), 'prayers.json', 'not valid JSON');
  });

  it('names the file and the path of a schema violation', () => {
    const files = withEdit('items/food.json', (items) => {
      items[0].value = -5;
    });
    const error = assertRejected(files, 'items/food.json', '0.value');
    assert.equal(error.file, 'items/food.json');
  });

  it('refuses experience finer than a tenth of a point (the server counts tenths): 6.25 names the file, path and rule', () => {
    const files = withEdit('recipes/smithing.json', (recipes) => {
      recipes[0].xp = 6.25;
    });
    assertRejected(files, 'recipes/smithing.json', '0.xp', 'tenths of a point');
    const bones = withEdit('items/misc.json', (items) => {
      const item = items.find((i: Json) => i.prayerXp !== undefined);
      item.prayerXp = 4.55;
    });
    assertRejected(bones, 'items/misc.json', 'prayerXp', 'tenths of a point');
  });

  it('requires the required manifests', () => {
    const files = new Map(bundled);
    files.delete('stores.json');
    files.delete('items/food.json');
    assertRejected(files, 'stores.json', 'items/food.json');
  });

  it('accepts a single items.json instead of the split item files', () => {
    const files = new Map(bundled);
    const all: Json[] = [];
    for (const path of [...files.keys()].filter((p) => p.startsWith('items/'))) {
      all.push(...JSON.parse(files.get(path)!.toString('utf8')));
      files.delete(path);
    }
    files.set('items.json', Buffer.from(JSON.stringify(all)));
    const data = validateManifests(files);
    assert.equal(data.itemsById.size, all.length);
  });

  describe('cross-references', () => {
    const cases: [string, string, (json: Json) => void, string][] = [
      ['store stock', 'stores.json', (s) => s[0].stock.push({ itemId: 'golden_goose', quantity: 1 }), "unknown item 'golden_goose'"],
      ['untradeable stock', 'stores.json', (s) => s[0].stock.push({ itemId: 'tarnished_locket', quantity: 1 }), "untradeable item 'tarnished_locket'"],
      ['drop tables', 'npcs.json', (n) => n.find((x: Json) => x.id === 'goblin').drops.push({ itemId: 'dragon_axe', chance: 0.1, min: 1, max: 1 }), "unknown item 'dragon_axe'"],
      ['recipe outputs', 'recipes/smithing.json', (r) => (r[0].outputs[0].itemId = 'mithril_bar'), "unknown item 'mithril_bar'"],
      ['recipe inputs', 'recipes/cooking.json', (r) => (r[0].inputs[0].itemId = 'raw_kraken'), "unknown item 'raw_kraken'"],
      ['gathering outputs', 'gathering/mining.json', (g) => (g[0].outputs[0].itemId = 'gold_ore'), "unknown item 'gold_ore'"],
      ['gathering resources', 'gathering/fishing.json', (g) => (g[0].resourceId = 'oak_tree'), 'of skill woodcutting'],
      ['quest rewards', 'quests.json', (q) => q[0].rewards.items.push({ itemId: 'crown', quantity: 1 }), "unknown item 'crown'"],
      ['quest requirements', 'quests.json', (q) => q[1].requirements.quests.push('dragon_slayer'), "unknown quest 'dragon_slayer'"],
      ['station models', 'stations.json', (s) => (s[0].model = 'throne'), "model 'throne' missing from model-bounds.json"],
      ['dialogue nodes', 'dialogue.json', (d) => (d[0].nodes[0].options[0].next = 'nowhere'), "unknown node 'nowhere'"],
      ['dialogue stores', 'dialogue.json', (d) => (d[1].nodes[1].action.storeId = 'closed_shop'), "unknown store 'closed_shop'"],
      ['spawns on water', 'spawns.json', (s) => Object.assign(s.npcs[0], { x: 100, z: 170 }), 'blocked tile 100,170'],
      ['spawns of unknown npcs', 'spawns.json', (s) => (s.npcs[0].npcId = 'ghost_king'), "unknown npc 'ghost_king'"],
      ['areas outside the world', 'world-areas.json', (w) => (w.areas[0].bounds.maxX = 250), 'outside the 200x200 world'],
      ['template equipment', 'templates.json', (t) => (t[1].equipment.weapon = 'steel_sword'), "cannot wear 'steel_sword'"],
      ['ammunition weapons', 'ammunition.json', (a) => a[0].weaponIds.push('sling'), "unknown item 'sling'"],
    ];
    for (const [what, file, edit, fragment] of cases) {
      it(`catches broken ${what} in ${file}`, () => {
        const error = assertRejected(withEdit(file, edit), file, fragment);
        assert.ok(error.file === file || error.problems.some((p) => p.startsWith(`${file}:`)));
      });
    }

    it('catches an item id defined in two item files', () => {
      const files = withEdit('items/food.json', (f) => f.push({ id: 'coins', name: 'Chocolate coins', value: 1, stackable: true, tradeable: true }));
      assertRejected(files, "item 'coins' is already defined in");
    });

    it('catches a recipe needing a station type that no station has', () => {
      let files = withEdit('stations.json', (s) => s.splice(s.findIndex((x: Json) => x.type === 'rune-altar'), 1));
      files = withEdit('spawns.json', (s) => (s.stations = s.stations.filter((x: Json) => x.stationId !== 'rune_altar')), files);
      assertRejected(files, 'recipes/runecrafting.json', "needs a 'rune-altar' station but stations.json has none");
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
