/**
 * The per-account item-transaction budget (issue #17 item 7): sockets of one account sending `inventory:move` as
 * fast as their message allowance lets them get ITEM_TRANSACTIONS_PER_SECOND transactions, not one per message.
 * Opening a trade is paid from both accounts' budgets (trading between one's own accounts is no way around it).
 * The budget's clock is held still, so no token comes back during the test: exactly the burst gets through.
 */
import assert from 'node:assert/strict';
import { setItemBudgetClock } from '../../rooms/world/item-budget.ts';
import { createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { HOME, lastSync, seed, seededPlayer } from './support.ts';
import { openTrade, traderPair } from '../trade/support.ts';

const PER_SECOND = 4;

describe('item-transaction budget per account @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ITEM_TRANSACTIONS_PER_SECOND: String(PER_SECOND), TRADE_REQUEST_COOLDOWN_MS: '0' });
    setItemBudgetClock(() => 1_000_000);
  });
  after(async () => {
    setItemBudgetClock(() => performance.now());
    await server?.close();
  });

  it('two sockets of one account share one budget: past it every move is RATE_LIMITED and changes nothing', async () => {
    const logs = { itemId: 'logs', quantity: 1 };
    const first = await seededPlayer(server, HOME, { inventory: [logs] });
    const second = await createCharacterRow(server, first.account.accountId, HOME);
    await seed(server.context.db, second.id, { inventory: [logs] });
    const other = await jsonPlayer(server, first.account, second.id);
    await other.waitFor('player:sync');

    const sent = 12;
    const from = [first.client.events.length, other.events.length];
    for (let i = 0; i < sent / 2; i++) {
      first.client.send('inventory:move', { from: i % 2, to: (i + 1) % 2 });
      other.send('inventory:move', { from: i % 2, to: (i + 1) % 2 });
    }
    const answers = async (client: typeof other, start: number) => {
      const done = () => client.events.slice(start).filter((e) => e.type === 'player:sync' || (e.type === 'error' && e.data.event === 'inventory:move'));
      while (done().length < sent / 2) await new Promise((resolve) => setTimeout(resolve, 10));
      return done();
    };
    const all = [...await answers(first.client, from[0]), ...await answers(other, from[1])];
    const moved = all.filter((e) => e.type === 'player:sync').length;
    const refused = all.filter((e) => e.type === 'error');
    assert.equal(moved, PER_SECOND, 'exactly the burst of the account’s budget committed');
    assert.equal(refused.length, sent - PER_SECOND);
    for (const error of refused) assert.equal(error.data.code, 'RATE_LIMITED');

    // What was refused changed nothing: memory and the database agree on where the logs are.
    const rows = await server.context.db.em.fork().execute<Array<{ character_id: string; slot: number }>>(
      `select character_id, slot from inventory where character_id in (?, ?) and item_id = 'logs'`, [first.characterId, second.id]);
    assert.equal(rows.length, 2);
    const slotOf = (id: string) => rows.find((r) => r.character_id === id)!.slot;
    const memorySlot = (inventory: Array<{ itemId: string } | null>) => inventory.findIndex((s) => s?.itemId === 'logs');
    assert.equal(slotOf(first.characterId), memorySlot(lastSync(first.client).inventory));
    assert.equal(slotOf(second.id), memorySlot(lastSync(other).inventory));
    first.client.close();
    other.close();
  });

  it('each opened trade costs both accounts one: past the budget an accept is RATE_LIMITED and opens nothing', async () => {
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'logs', quantity: 1 }], [{ slot: 0, itemId: 'logs', quantity: 1 }]);
    for (let i = 0; i < PER_SECOND; i++) {
      const tradeId = await openTrade(a, b);
      const cancelled = Promise.all([a.ws.next('tradeCancelled'), b.ws.next('tradeCancelled')]);
      a.ws.send('tradeCancel', { tradeId });
      await cancelled;
    }
    const incoming = b.ws.next('tradeIncoming', (d) => d.fromPlayerId === a.id);
    a.ws.send('tradeRequest', { targetPlayerId: b.id });
    const { tradeId } = (await incoming).data;
    const from = a.ws.events.length;
    b.ws.send('tradeRequestRespond', { tradeId, accept: true });
    const refused = await b.ws.next('tradeError');
    assert.equal(refused.data.code, 'RATE_LIMITED');
    assert.equal(refused.data.tradeId, tradeId);
    assert.ok(Number(refused.data.retryAfterMs) > 0);
    // Nothing opened, and the requester's budget is spent too: its own item moves wait as well.
    a.ws.send('inventory:move', { from: 0, to: 1 });
    assert.equal((await a.ws.waitFor('error', (d) => d.event === 'inventory:move', 5_000, from)).data.code, 'RATE_LIMITED');
    assert.ok(!a.ws.events.slice(from).some((e) => e.type === 'tradeStarted'));
    a.ws.close();
    b.ws.close();
  });

  it('another account keeps its own budget', async () => {
    const p = await seededPlayer(server, HOME, { inventory: [{ itemId: 'logs', quantity: 1 }] });
    p.client.send('inventory:move', { from: 0, to: 1 });
    await p.client.next('player:sync');
    p.client.close();
  });
});
