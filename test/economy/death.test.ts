import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { killPlayer } from '../../rooms/world/features/economy/death.ts';
import { visibleEntities } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { HOME, ledger, ok, refusal, request, rowsOf, seed, seededPlayer, stack, worldRoomOf, type Seed } from './support.ts';

/** A death spot one tile from home, so the respawned owner can claim without walking. */
const SPOT = { x: 101, z: 101 };

const LOADOUT: Seed = {
  inventory: [stack('coins', 500), stack('iron_platebody'), stack('bread'), stack('bronze_dagger'), stack('feather', 20)],
  equipment: { weapon: stack('steel_sword'), head: stack('iron_full_helm'), shield: stack('bronze_kiteshield'), ammunition: stack('bronze_arrows', 40) },
  health: 30,
};

describe('death and gravestones @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => { server = await startTestServer({ ITEMS_KEPT_ON_DEATH: '3', GRAVESTONE_SECONDS: '600' }); });
  after(() => server?.close());
  const db = () => server.context.db;

  it('keeps the 3 most valuable items, locks the rest in one death row, respawns at home with full health', async () => {
    const p = await seededPlayer(server, SPOT, LOADOUT);
    const watcher = await seededPlayer(server, { x: 103, z: 101 });
    const before = ledger(await rowsOf(db(), p.characterId));
    const room = worldRoomOf(p.client);
    const outcome = await killPlayer(room, room.player(p.characterId)!);
    const died = await p.client.waitFor('player:died');
    assert.deepEqual(died.data.respawn, HOME);
    const sync = await p.client.waitFor('player:sync', (d) => d.x === HOME.x && d.z === HOME.z);
    assert.equal(sync.data.health, sync.data.maxHealth);
    // Kept: iron platebody (560), steel sword (325), iron full helm (154), each where it was.
    assert.deepEqual(sync.data.inventory.filter(Boolean), [stack('iron_platebody')]);
    assert.deepEqual(Object.entries(sync.data.equipment).filter(([, v]) => v).map(([k]) => k).sort(), ['head', 'weapon']);
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.deaths.map((d) => d.status), ['locked']);
    assert.deepEqual(rows.deaths[0].id, outcome.gravestone!.id);
    assert.deepEqual(ledger(rows), before, 'every item exists exactly once: kept + gravestone');
    assert.deepEqual(rows.equipment.map((e) => e.item_id).sort(), ['iron_full_helm', 'steel_sword']);
    assert.equal(rows.coins, 0);
    assert.equal(rows.health, 100);
    const [position] = await db().em.fork().execute('select position_x, position_z from characters where id = ?', [p.characterId]);
    assert.deepEqual([Number(position.position_x), Number(position.position_z)], [HOME.x, HOME.z]);
    await watcher.client.waitFor('world:update', (d) => d.added.some((e: { kind: string; id: string }) => e.kind === 'gravestone' && e.id === outcome.gravestone!.id));
    const seen = visibleEntities(watcher.client).get(`gravestone:${outcome.gravestone!.id}`)!;
    assert.deepEqual([seen.x, seen.z, seen.ownerId], [SPOT.x, SPOT.z, p.characterId]);

    // Only the owner claims; what fits comes back and the death row is closed.
    assert.equal(await refusal(watcher.client, 'gravestone:claim', { gravestoneId: outcome.gravestone!.id }, 'gravestone:claimed'), 'NOT_YOUR_GRAVESTONE');
    const claimed = await ok(p.client, 'gravestone:claim', { gravestoneId: outcome.gravestone!.id }, 'gravestone:claimed');
    assert.deepEqual(claimed.data.remaining, []);
    const after = await rowsOf(db(), p.characterId);
    assert.deepEqual(after.deaths.map((d) => d.status), ['reclaimed']);
    assert.deepEqual(ledger(after), before);
    assert.equal(after.coins, 500);
    assert.equal(await refusal(p.client, 'gravestone:claim', { gravestoneId: outcome.gravestone!.id }, 'gravestone:claimed'), 'NOT_FOUND');
    await watcher.client.waitFor('world:update', (d) => d.removed.some((e: { id: string }) => e.id === outcome.gravestone!.id));
    p.client.close();
    watcher.client.close();
  });

  it('dying again before claiming makes a second gravestone and neither duplicates nor loses the first', async () => {
    const p = await seededPlayer(server, SPOT, LOADOUT);
    const start = ledger(await rowsOf(db(), p.characterId));
    const room = worldRoomOf(p.client);
    const first = await killPlayer(room, room.player(p.characterId)!);
    // Between the deaths the player gets new things (as from gathering); the 3 kept items are still the most valuable.
    const between = await rowsOf(db(), p.characterId);
    await seed(db(), p.characterId, {
      inventory: [...between.inventory.map((r) => stack(r.item_id, r.quantity)), stack('coins', 25), stack('bread')],
      equipment: Object.fromEntries(between.equipment.map((r) => [r.slot_type, stack(r.item_id, r.quantity)])),
    });
    start.set('coins', start.get('coins')! + 25);
    start.set('bread', start.get('bread')! + 1);
    const second = await killPlayer(room, room.player(p.characterId)!);
    assert.ok(first.gravestone && second.gravestone && first.gravestone.id !== second.gravestone.id);
    let rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.deaths.map((d) => d.status), ['locked', 'locked']);
    assert.deepEqual(ledger(rows), start);
    assert.deepEqual(rows.deaths[0].items, first.gravestone.items, 'the first gravestone is untouched');
    // The second death happened at home (the respawn point); both are claimable from there.
    for (const g of [first.gravestone, second.gravestone]) await ok(p.client, 'gravestone:claim', { gravestoneId: g.id }, 'gravestone:claimed');
    rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.deaths.map((d) => d.status), ['reclaimed', 'reclaimed']);
    assert.deepEqual(ledger(rows), start);
    p.client.close();
  });

  it('a claim into a nearly full inventory is partial; the rest stays in the gravestone', async () => {
    const p = await seededPlayer(server, SPOT, {
      inventory: [stack('iron_platebody'), stack('iron_full_helm'), stack('iron_kiteshield'), stack('bronze_sword'), stack('bronze_dagger'), stack('coins', 9)],
    });
    const room = worldRoomOf(p.client);
    const { gravestone } = await killPlayer(room, room.player(p.characterId)!);
    assert.deepEqual(gravestone!.items, [stack('bronze_sword'), stack('bronze_dagger'), stack('coins', 9)]);
    // Meanwhile the inventory fills up to one free slot.
    await seed(db(), p.characterId, {
      inventory: [stack('iron_platebody'), stack('iron_full_helm'), stack('iron_kiteshield'), ...Array.from({ length: 24 }, () => stack('bread'))],
    });
    const claimed = await ok(p.client, 'gravestone:claim', { gravestoneId: gravestone!.id }, 'gravestone:claimed');
    assert.deepEqual(claimed.data.claimed, [stack('bronze_sword')]);
    assert.deepEqual(claimed.data.remaining, [stack('bronze_dagger'), stack('coins', 9)]);
    assert.equal(await refusal(p.client, 'gravestone:claim', { gravestoneId: gravestone!.id }, 'gravestone:claimed'), 'INVENTORY_FULL');
    const rows = await rowsOf(db(), p.characterId);
    assert.deepEqual(rows.deaths.map((d) => [d.status, d.items]), [['locked', [stack('bronze_dagger'), stack('coins', 9)]]]);
    p.client.close();
  });

  it('equipping while dying cannot duplicate: equipment and death are serialised on the character', async () => {
    for (let round = 0; round < 3; round++) {
      const p = await seededPlayer(server, SPOT, {
        inventory: [stack('bronze_sword'), stack('bronze_full_helm'), stack('leather_boots'), stack('coins', 77)],
        equipment: { weapon: stack('bronze_dagger'), cape: stack('wool_cape') },
      });
      const start = ledger(await rowsOf(db(), p.characterId));
      const room = worldRoomOf(p.client);
      const equips = [0, 1, 2].map((slot) => request(p.client, 'equipment:equip', { inventorySlot: slot }, 'player:sync'));
      const death = killPlayer(room, room.player(p.characterId)!);
      await Promise.all([death, ...equips]);
      await sleep(300); // let any equip still behind the death's lock commit
      const rows = await rowsOf(db(), p.characterId);
      assert.deepEqual(ledger(rows), start, `round ${round}: no item duplicated or lost`);
      const kept = rows.inventory.length + rows.equipment.length;
      assert.equal(kept, 3, 'exactly the 3 kept items remain with the player');
      p.client.close();
    }
  });
});
