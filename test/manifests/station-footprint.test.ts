import assert from 'node:assert/strict';
import { buildingWallTiles, computeBlockedTiles, placedStationTiles } from '../../src/manifests/blocked-tiles.ts';
import { readManifestDir } from '../../src/manifests/manifest-cache.ts';
import { lengthInTiles, stationFootprint } from '../../src/manifests/station-footprint.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import { validateManifests } from '../../src/manifests/validate-manifests.ts';
import { BUNDLED_MANIFESTS } from './support/temp-dir.ts';

describe('stationFootprint', () => {
  it('rounds each side up to whole tiles with a small tolerance, at least one tile', () => {
    assert.equal(lengthInTiles(1, 1), 1);
    assert.equal(lengthInTiles(1.0000001, 1), 1, 'float noise does not add a tile');
    assert.equal(lengthInTiles(1.01, 1), 2);
    assert.equal(lengthInTiles(0.2, 1), 1);
    assert.equal(lengthInTiles(0, 1), 1);
    assert.equal(lengthInTiles(3, 2), 2);
    assert.equal(lengthInTiles(4, 2), 2);
  });

  it('multiplies the model dimensions by modelScale before converting to tiles', () => {
    const furnace = { x: 2, y: 2.5, z: 2 };
    assert.deepEqual(stationFootprint(furnace, 1, 1), { width: 2, depth: 2 });
    assert.deepEqual(stationFootprint(furnace, 0.5, 1), { width: 1, depth: 1 });
    assert.deepEqual(stationFootprint(furnace, 1.5, 1), { width: 3, depth: 3 });
    assert.deepEqual(stationFootprint(furnace, 2, 0.5), { width: 8, depth: 8 });
    const runeAltar = { x: 2.6, y: 1.2, z: 2.6 };
    assert.deepEqual(stationFootprint(runeAltar, 1, 1), { width: 3, depth: 3 });
    assert.deepEqual(stationFootprint(runeAltar, 1.5, 1), { width: 4, depth: 4 });
    const anvil = { x: 1, y: 0.8, z: 0.6 };
    assert.deepEqual(stationFootprint(anvil, 1, 1), { width: 1, depth: 1 });
    assert.deepEqual(stationFootprint(anvil, 2, 1), { width: 2, depth: 2 });
    assert.deepEqual(stationFootprint(anvil, 3, 1), { width: 3, depth: 2 });
  });

  it('swaps width and depth for quarter turns', () => {
    const altar = { x: 2, y: 1.1, z: 1 };
    assert.deepEqual(stationFootprint(altar, 1, 1, 0), { width: 2, depth: 1 });
    assert.deepEqual(stationFootprint(altar, 1, 1, 90), { width: 1, depth: 2 });
    assert.deepEqual(stationFootprint(altar, 1, 1, 180), { width: 2, depth: 1 });
    assert.deepEqual(stationFootprint(altar, 1, 1, 270), { width: 1, depth: 2 });
  });

  it('rejects non-positive scales and tile sizes', () => {
    assert.throws(() => stationFootprint({ x: 1, z: 1 }, 0, 1), RangeError);
    assert.throws(() => stationFootprint({ x: 1, z: 1 }, 1, 0), RangeError);
    assert.throws(() => stationFootprint({ x: Number.NaN, z: 1 }, 1, 1), RangeError);
  });
});

describe('blocked tiles of the bundled world', () => {
  let data: GameData;

  before(async () => {
    data = validateManifests(await readManifestDir(BUNDLED_MANIFESTS));
  });

  it('blocks the tiles under placed stations using model bounds × modelScale', () => {
    const runeAltar = data.spawns.stations.find((s) => s.stationId === 'rune_altar')!;
    assert.deepEqual(placedStationTiles(data, runeAltar), { minX: 148, minZ: 38, maxX: 151, maxZ: 41 });
    const furnace = data.spawns.stations.find((s) => s.stationId === 'furnace')!;
    assert.deepEqual(placedStationTiles(data, furnace), { minX: 92, minZ: 110, maxX: 93, maxZ: 111 });
    const blocked = computeBlockedTiles(data);
    assert.ok(blocked.isBlocked(151, 41));
    assert.ok(!blocked.isBlocked(152, 41));
    assert.ok(blocked.isBlocked(93, 111));
  });

  it('blocks building walls but not doors or interiors, water, and everything outside the world', () => {
    const bank = data.buildingsById.get('bank_of_brackenford')!;
    const walls = buildingWallTiles(bank);
    assert.equal(walls.length, 2 * 8 + 2 * 4 - 1, 'perimeter of an 8×6 footprint minus one door');
    const blocked = computeBlockedTiles(data);
    assert.ok(blocked.isBlocked(104, 86), 'west wall');
    assert.ok(!blocked.isBlocked(107, 89), 'door');
    assert.ok(!blocked.isBlocked(109, 87), 'inside');
    assert.ok(blocked.isBlocked(50, 180), 'sea');
    assert.ok(blocked.isBlocked(-1, 5) && blocked.isBlocked(200, 5));
    assert.ok(!blocked.isBlocked(data.world.home.x, data.world.home.z), 'home');
  });
});
