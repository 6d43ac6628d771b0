/** The play page draws and walks on the tiles it computes from the served manifests: they must be the server's. */
import assert from 'node:assert/strict';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { stationFootprint as serverFootprint } from '../../src/manifests/station-footprint.ts';
import { buildWorldData, stationFootprint, Tile } from '../../src/web/play/lib/world-data.js';
import { bundledData } from '../game/support/bundled-data.ts';
import { bundledManifests, bundledWorld } from './support/bundled-manifests.ts';

describe('play page: the world from the manifests', () => {
  it('blocks exactly the tiles the server blocks (water, obstacles, walls, stations, blocking resources)', async () => {
    const server = computeBlockedTiles(await bundledData());
    const world = bundledWorld();
    assert.equal(world.width, server.width);
    assert.equal(world.depth, server.depth);
    const differ: string[] = [];
    for (let z = -1; z <= world.depth; z++) {
      for (let x = -1; x <= world.width; x++) if (world.isBlocked(x, z) !== server.isBlocked(x, z)) differ.push(`${x},${z}`);
    }
    assert.deepEqual(differ, []);
    assert.ok(server.blockedCount > 1000, 'the bundled world has walls, water and stations to compare');
  });

  it('rounds station footprints as the server does, rotations included', () => {
    for (const dimensions of [{ x: 1, z: 1 }, { x: 2.0000001, z: 0.5 }, { x: 2.6, z: 1.2 }, { x: 0, z: 3 }]) {
      for (const scale of [0.5, 1, 1.5]) {
        for (const rotation of [0, 90, 180, 270] as const) {
          assert.deepEqual(stationFootprint(dimensions, scale, 1, rotation), serverFootprint(dimensions, scale, 1, rotation), JSON.stringify({ dimensions, scale, rotation }));
        }
      }
    }
  });

  it('names the tiles it draws: water, walls with their doors open, stations with their event ids', () => {
    const world = bundledWorld();
    const manifests = bundledManifests() as { 'buildings.json': Array<{ footprint: { minX: number; minZ: number }; doors: Array<{ x: number; z: number }> }> };
    const bank = manifests['buildings.json'][0];
    assert.equal(world.kindAt(bank.footprint.minX, bank.footprint.minZ), Tile.WALL);
    assert.equal(world.kindAt(bank.doors[0].x, bank.doors[0].z), Tile.FLOOR);
    assert.equal(world.isBlocked(bank.doors[0].x, bank.doors[0].z), false);
    assert.equal(world.kindAt(100, 199), Tile.WATER);
    const booth = world.stations.find((s: { type: string }) => s.type === 'bank');
    assert.ok(booth);
    assert.match(booth.id, /^station-\d+$/);
    assert.equal(world.stationAt(booth.bounds.minX, booth.bounds.minZ), booth);
    assert.equal(world.areaAt(107, 86)?.id, 'brackenford_bank', 'the smallest area holding a tile names it');
    assert.equal(world.itemName('bronze_hatchet'), 'Bronze hatchet');
    assert.equal(world.itemName('no_such_item'), 'no such item');
    assert.equal(world.storesByNpc.get('mirela')?.id, 'brackenford_general_store');
  });

  it('builds from a minimal world with no buildings or stations', () => {
    const world = buildWorldData({ 'world-areas.json': { width: 3, depth: 2, home: { x: 1, z: 1 }, areas: [] }, items: [] });
    assert.equal(world.isBlocked(0, 0), false);
    assert.equal(world.isBlocked(3, 0), true, 'outside the world is blocked');
    assert.equal(world.areaAt(0, 0), undefined);
  });
});
