/**
 * Property: whatever three players send, in whatever interleaving (requests, answers, adds, removes, accepts,
 * cancels, racing each other over real sockets), the per-item totals across their inventories never change, and
 * what the server holds in memory is what the database holds.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import fc from 'fast-check';
import type { WorldRoom } from '../../rooms/WorldRoom.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { inventoryRows, itemTotals, trader, type Trader } from './support.ts';

type Command =
  | { kind: 'request'; from: number; to: number }
  | { kind: 'respond'; who: number; accept: boolean }
  | { kind: 'add'; who: number; slot: number; quantity: number }
  | { kind: 'remove'; who: number; tradeSlot: number; quantity: number | undefined }
  | { kind: 'accept'; who: number }
  | { kind: 'cancel'; who: number }
  /** Request and, as soon as the target heard of it, accept (so trades open often). */
  | { kind: 'open'; from: number; to: number }
  /** Every player accepts its trade at once (so swaps race everything else). */
  | { kind: 'acceptAll' }
  /** Both screens' accepts from everyone, a moment apart (so trades also complete while other events race). */
  | { kind: 'acceptTwice' };

const who = fc.integer({ min: 0, max: 2 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('request' as const), from: who, to: who }),
  fc.record({ kind: fc.constant('respond' as const), who, accept: fc.boolean() }),
  fc.record({ kind: fc.constant('add' as const), who, slot: fc.integer({ min: 0, max: 5 }), quantity: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constantFrom(0, 0.5, 5000)) }),
  fc.record({ kind: fc.constant('remove' as const), who, tradeSlot: fc.integer({ min: 0, max: 3 }), quantity: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('accept' as const), who }),
  fc.record({ kind: fc.constant('accept' as const), who }),
  fc.record({ kind: fc.constant('cancel' as const), who }),
  fc.record({ kind: fc.constant('open' as const), from: who, to: who }),
  fc.record({ kind: fc.constant('open' as const), from: who, to: who }),
  fc.record({ kind: fc.constant('acceptAll' as const) }),
  fc.record({ kind: fc.constant('acceptTwice' as const) }),
  fc.record({ kind: fc.constant('acceptTwice' as const) }),
);

describe('trading: random interleavings conserve every item (fast-check) @db', function () {
  this.timeout(120_000);
  let server: TestServer;
  let traders: Trader[];
  let world: WorldRoom;

  before(async () => {
    server = await startTestServer({ TRADE_REQUEST_COOLDOWN_MS: '0' });
    const items = (n: number) => [
      { slot: 0, itemId: 'coins', quantity: 1000 },
      { slot: 1, itemId: 'feather', quantity: 50 },
      { slot: 2, itemId: 'bronze_sword', quantity: 1, metadata: { owner: `p${n}` } },
      { slot: 3, itemId: 'logs', quantity: 1 },
      { slot: 4, itemId: 'barrow_key', quantity: 1 },
      // The third player's inventory is almost full, so swaps also fail for space.
      ...(n === 2 ? Array.from({ length: 22 }, (_, i) => ({ slot: 6 + i, itemId: 'bones', quantity: 1 })) : []),
    ];
    traders = [
      await trader(server, { x: 120, z: 96 }, items(0)),
      await trader(server, { x: 121, z: 96 }, items(1)),
      await trader(server, { x: 121, z: 97 }, items(2)),
    ];
    const [listing] = await matchMaker.query({ name: 'world' });
    world = matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
  });
  after(async () => {
    for (const t of traders ?? []) t.ws.close();
    await server?.close();
  });

  it('per-item totals never change, memory matches the database', async () => {
    const ids = traders.map((t) => t.id);
    const initial = await itemTotals(server.context.db, ids);
    /** The trade id each player last heard of (incoming request or started trade). */
    const known = traders.map(() => '');
    for (const [i, t] of traders.entries()) {
      t.ws.socket.on('message', (raw) => {
        const event = JSON.parse(raw.toString());
        if (event.type === 'tradeIncoming' || event.type === 'tradeStarted') known[i] = event.data.tradeId;
      });
    }
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(command, fc.constantFrom(0, 3, 10, 25)), { minLength: 5, maxLength: 40 }), async (script) => {
      for (const [cmd, pause] of script) {
        switch (cmd.kind) {
          case 'request': traders[cmd.from].ws.send('tradeRequest', { targetPlayerId: traders[cmd.to].id }); break;
          case 'respond': traders[cmd.who].ws.send('tradeRequestRespond', { tradeId: known[cmd.who] || 'none', accept: cmd.accept }); break;
          case 'add': traders[cmd.who].ws.send('tradeAddItem', { tradeId: known[cmd.who] || 'none', inventorySlot: cmd.slot, quantity: cmd.quantity }); break;
          case 'remove': traders[cmd.who].ws.send('tradeRemoveItem', { tradeId: known[cmd.who] || 'none', tradeSlot: cmd.tradeSlot, ...(cmd.quantity ? { quantity: cmd.quantity } : {}) }); break;
          case 'accept': traders[cmd.who].ws.send('tradeAccept', { tradeId: known[cmd.who] || 'none' }); break;
          case 'cancel': traders[cmd.who].ws.send('tradeCancel', { tradeId: known[cmd.who] || 'none' }); break;
          case 'open': {
            const heard = traders[cmd.to].ws.next('tradeIncoming', () => true, 200).catch(() => undefined);
            traders[cmd.from].ws.send('tradeRequest', { targetPlayerId: traders[cmd.to].id });
            const incoming = await heard;
            if (incoming) traders[cmd.to].ws.send('tradeRequestRespond', { tradeId: incoming.data.tradeId, accept: true });
            break;
          }
          case 'acceptAll': for (const [i, t] of traders.entries()) t.ws.send('tradeAccept', { tradeId: known[i] || 'none' }); break;
          case 'acceptTwice':
            for (let round = 0; round < 2; round++) {
              for (const [i, t] of traders.entries()) t.ws.send('tradeAccept', { tradeId: known[i] || 'none' });
              await sleep(20);
            }
            break;
        }
        if (pause) await sleep(pause);
      }
      // Let everything in flight land, then close whatever is still open.
      await sleep(150);
      for (const [i, t] of traders.entries()) if (known[i]) t.ws.send('tradeCancel', { tradeId: known[i] });
      await sleep(150);
      assert.deepEqual(await itemTotals(server.context.db, ids), initial);
      for (const t of traders) {
        const player = world.player(t.id)!;
        assert.equal(player.lock, undefined, 'no trade left open');
        const rows = await inventoryRows(server.context.db, t.id);
        const memory = player.containers.inventory.flatMap((slot, index) => (slot ? [[index, slot.itemId, slot.quantity]] : []));
        assert.deepEqual(memory, rows.map((r) => [r.slot, r.item_id, r.quantity]), 'memory follows the committed database state');
      }
      const swords = await server.context.db.em.fork().execute<Array<{ n: string }>>(
        `select count(*) as n from inventory where item_id = 'bronze_sword' and metadata is not null and character_id in (?, ?, ?)`, ids);
      assert.equal(Number(swords[0].n), 3, 'every sword keeps its metadata');
    }), { numRuns: 20 });
    const completed = await server.context.db.em.fork().execute<Array<{ n: string }>>(
      `select count(*) as n from trade_audit where status = 'completed' and (initiator_id in (?, ?, ?))`, ids);
    if (process.env.TRADE_PROPERTY_VERBOSE) console.log(`completed trades: ${completed[0].n}`);
  });
});
