import assert from 'node:assert/strict';
import { moveNpc, setWanderRng } from '../../rooms/world/features/npcs/wander.ts';
import { NpcEntity } from '../../rooms/world/world-entities.ts';
import { WANDER_CHANCE } from '../../src/game/wander.ts';
import { computeBlockedTiles } from '../../src/manifests/blocked-tiles.ts';
import { request, until, worldRoomOf } from '../economy/support.ts';
import { visibleEntities } from '../helpers/players.ts';
import { bundledData } from '../game/support/bundled-data.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { playerWith, sequence } from '../skills/support.ts';

/** spawns.json: npcs[6–8] are chickens (radius 4), npcs[11–12] giant rats (radius 3); npcs[0] the banker (radius 0). */
const WANDERERS = [6, 7, 8, 11, 12];

describe('NPC wandering over a real socket', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    // Every draw is below the wander chance: each idle wanderer steps on every tick, in varied directions.
    setWanderRng(sequence(7, WANDER_CHANCE));
  });
  after(async () => {
    setWanderRng(Math.random);
    await server.close();
  });

  it('idle NPCs step about within their radius on walkable tiles, and clients see them move', async () => {
    const data = await bundledData();
    const blocked = computeBlockedTiles(data);
    const { client } = await playerWith(server, { x: 88, z: 52 }, {});
    const seen = new Map<string, Array<{ x: number; z: number }>>();
    const positions = () => {
      seen.clear();
      for (const event of client.events) {
        if (event.type !== 'world:update') continue;
        for (const entity of [...event.data.added, ...event.data.changed]) {
          if (entity.kind !== 'npc' || (entity.x === undefined && entity.z === undefined)) continue;
          // A change carries only the axis that changed: the other is where the NPC last was.
          const list = seen.get(entity.id) ?? [];
          const last = list.at(-1);
          list.push({ x: entity.x ?? last!.x, z: entity.z ?? last!.z });
          seen.set(entity.id, list);
        }
      }
      return seen;
    };
    await until(async () => (positions().get('npc-6')?.length ?? 0) >= 10, 15_000);

    for (const index of WANDERERS) {
      const spawn = data.spawns.npcs[index];
      const path = positions().get(`npc-${index}`) ?? [];
      assert.ok(new Set(path.map((p) => `${p.x},${p.z}`)).size >= 3, `npc-${index} moved about (${JSON.stringify(path)})`);
      for (const p of path) {
        assert.ok(Math.max(Math.abs(p.x - spawn.x), Math.abs(p.z - spawn.z)) <= spawn.wanderRadius, `npc-${index} at ${p.x},${p.z} left its radius`);
        assert.ok(!blocked.isBlocked(p.x, p.z), `npc-${index} on a blocked tile ${p.x},${p.z}`);
      }
      for (let i = 1; i < path.length; i++) {
        assert.ok(Math.max(Math.abs(path[i].x - path[i - 1].x), Math.abs(path[i].z - path[i - 1].z)) <= 1, `npc-${index} jumped`);
      }
    }
    client.close();
  });

  it('an NPC stands still while a player talks to it, and wanders again once the dialogue closes', async () => {
    const data = await bundledData();
    const spawn = data.spawns.npcs[3]; // warden_hale: talks (hale_advice) and wanders (radius 3)
    const { client } = await playerWith(server, { x: spawn.x, z: spawn.z + 2 }, {});
    setWanderRng(() => 0.99); // nobody wanders while the NPC is put back on its spawn tile
    const world = worldRoomOf(client);
    let hale: NpcEntity | undefined;
    world.grid.forEachNear(spawn.x, spawn.z, spawn.wanderRadius + 1, (entity) => {
      if (entity instanceof NpcEntity && entity.id === 'npc-3') hale = entity;
    });
    assert.ok(hale, 'warden_hale is in the world');
    moveNpc(world, hale, { x: spawn.x, z: spawn.z });
    const talk = await request(client, 'npc:talk', { npcId: 'npc-3' }, 'dialogue:open');
    assert.ok(talk.ok, 'the dialogue opens');

    setWanderRng(sequence(7, WANDER_CHANCE)); // from now on every idle wanderer steps on every tick
    const ticksAt = world.state.tick;
    await until(async () => world.state.tick >= ticksAt + 6, 10_000);
    assert.deepEqual({ x: hale.x, z: hale.z }, { x: spawn.x, z: spawn.z }, 'six ticks later the NPC has not moved');
    assert.ok(!client.events.some((e) => e.type === 'dialogue:closed'), 'the dialogue is still open');

    await request(client, 'dialogue:close', {}, 'dialogue:closed');
    await until(async () => hale!.x !== spawn.x || hale!.z !== spawn.z, 10_000);
    await until(async () => {
      const seen = visibleEntities(client).get('npc:npc-3');
      return seen !== undefined && (seen.x !== spawn.x || seen.z !== spawn.z);
    });
    client.close();
  });
});
