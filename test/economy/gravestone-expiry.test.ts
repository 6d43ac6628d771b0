import assert from 'node:assert/strict';
import { killPlayer } from '../../rooms/world/features/economy/death.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ledger, ok, refusal, rowsOf, seededPlayer, stack, until, worldRoomOf } from './support.ts';

const SPOT = { x: 101, z: 101 };

describe('gravestone expiry @db', function () {
  this.timeout(60_000);
  let quick: TestServer;
  before(async () => { quick = await startTestServer({ GRAVESTONE_SECONDS: '1', GROUND_ITEM_PUBLIC_SECONDS: '600' }); });
  after(() => quick?.close());

  it('an expired gravestone releases its items as public ground items in one transaction', async () => {
        const p = await seededPlayer(quick, SPOT, { inventory: [stack('coins', 10), stack('bronze_sword'), stack('bread'), stack('bronze_dagger'), stack('feather', 5), stack('bread')] });
    const other = await seededPlayer(quick, { x: 102, z: 101 });
    const before = ledger(await rowsOf(quick.context.db, p.characterId));
    const room = worldRoomOf(p.client);
    const { gravestone } = await killPlayer(room, room.player(p.characterId)!);
    await until(async () => (await rowsOf(quick.context.db, p.characterId)).deaths[0].status === 'released');
    const rows = await rowsOf(quick.context.db, p.characterId);
    const piles = await quick.context.db.em.fork().execute<Array<{ id: string; item_id: string; quantity: number; owner_id: string | null }>>(
    'select id, item_id, quantity, owner_id from ground_items where x = ? and z = ?', [SPOT.x, SPOT.z]);
    const released = new Map<string, number>();
    for (const pile of piles) released.set(pile.item_id, (released.get(pile.item_id) ?? 0) + Number(pile.quantity));
    const expected = new Map<string, number>();
    for (const item of gravestone!.items) expected.set(item.itemId, (expected.get(item.itemId) ?? 0) + item.quantity);
    assert.deepEqual(released, expected);
    assert.ok(piles.every((pile) => pile.owner_id === null), 'public at once');
    const kept = ledger({ ...rows, deaths: [] });
    const total = new Map(kept);
    for (const [id, n] of released) total.set(id, (total.get(id) ?? 0) + n);
    assert.deepEqual(new Map([...total].sort()), before);
    assert.equal(await refusal(p.client, 'gravestone:claim', { gravestoneId: gravestone!.id }, 'gravestone:claimed'), 'NOT_FOUND');
    // Anyone can pick them up now.
    const pile = piles.find((x) => x.item_id === 'coins')!;
    await other.client.waitFor('world:update', (d) => d.added.some((e: { id: string }) => e.id === pile.id));
    await ok(other.client, 'groundItem:pickup', { groundItemId: pile.id }, 'groundItem:pickedUp');
    assert.deepEqual((await rowsOf(quick.context.db, other.characterId)).inventory, [{ slot: 0, item_id: 'coins', quantity: 10 }]);
  });
});
