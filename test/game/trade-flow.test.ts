import assert from 'node:assert/strict';
import { emptyInventory, type Inventory } from '../../src/game/inventory.ts';
import type { ItemDefinitions } from '../../src/game/items.ts';
import {
  openTradeFlow, tradeEnded, tradeStep,
  type TradeFlow, type TradeFlowAction, type TradeFlowEffect, type TradeSide,
} from '../../src/game/trade-flow.ts';
import { bundledData } from './support/bundled-data.ts';

let items: ItemDefinitions;

function inventory(): Inventory {
  const inv = [...emptyInventory(28)];
  inv[0] = { itemId: 'coins', quantity: 100 };
  inv[1] = { itemId: 'logs', quantity: 5 };
  return inv;
}

/** One step that must succeed: the next flow and the effects' types. */
function step(flow: TradeFlow, action: TradeFlowAction): { flow: TradeFlow; effects: readonly TradeFlowEffect[]; types: string[] } {
  const result = tradeStep(flow, action);
  assert.ok(result.ok, result.ok ? '' : `${action.type} refused: ${result.code}`);
  return { ...result.value, types: result.value.effects.map((e) => e.type) };
}

function refusal(flow: TradeFlow, action: TradeFlowAction): string {
  const result = tradeStep(flow, action);
  assert.ok(!result.ok, `${action.type} was not refused`);
  return result.code;
}

const add = (side: TradeSide, inventorySlot = 0, quantity = 1): TradeFlowAction => ({ type: 'add', side, inventory: inventory(), items, inventorySlot, quantity });
const accept = (side: TradeSide, distance = 1): TradeFlowAction => ({ type: 'accept', side, distance, maxDistance: 2 });

/** Both players accepted screen 1: the confirm screen. */
function onConfirm(): TradeFlow {
  let flow = step(openTradeFlow(), add('initiator')).flow;
  flow = step(flow, accept('initiator')).flow;
  return step(flow, accept('partner')).flow;
}

describe('the two-screen trade flow (pure)', () => {
  before(async () => {
    items = (await bundledData()).itemsById;
  });

  it('an add changes the offer, resets both accepts and shows both players the offers', () => {
    let flow = step(openTradeFlow(), add('initiator')).flow;
    flow = step(flow, accept('partner')).flow;
    assert.deepEqual(flow.accepted, { initiator: false, partner: true });
    const added = step(flow, add('initiator', 1, 2));
    assert.deepEqual(added.flow.accepted, { initiator: false, partner: false });
    assert.deepEqual(added.flow.offers.initiator.map((e) => [e.itemId, e.quantity]), [['coins', 1], ['logs', 2]]);
    assert.deepEqual(added.types, ['added', 'activity', 'updated']);
  });

  it('an add or remove on the confirm screen returns to screen 1 with both accepts reset; a removal is flagged to the other side', () => {
    let flow = onConfirm();
    flow = step(flow, accept('partner')).flow;
    const removed = step(flow, { type: 'remove', side: 'initiator', tradeSlot: 0 });
    assert.equal(removed.flow.screen, 'offer');
    assert.deepEqual(removed.flow.accepted, { initiator: false, partner: false });
    assert.deepEqual(removed.flow.offers.initiator, []);
    const updated = removed.effects.find((e) => e.type === 'updated');
    assert.deepEqual(updated, { type: 'updated', removedBy: 'initiator', removals: [{ tradeSlot: 0, inventorySlot: 0, itemId: 'coins', quantity: 1, remaining: 0 }] });
    assert.equal(step(onConfirm(), add('partner', 1)).flow.screen, 'offer');
  });

  it('an offer rule refusal changes nothing', () => {
    assert.equal(refusal(openTradeFlow(), add('initiator', 5)), 'EMPTY_SLOT');
    assert.equal(refusal(openTradeFlow(), add('initiator', 0, 0)), 'INVALID_QUANTITY');
    assert.equal(refusal(openTradeFlow(), { type: 'remove', side: 'partner', tradeSlot: 0 }), 'INVALID_TRADE_SLOT');
  });

  it('both accepting on screen 1 opens the confirm screen with both accepts reset', () => {
    let flow = step(openTradeFlow(), add('initiator')).flow;
    const first = step(flow, accept('initiator'));
    assert.deepEqual([first.flow.screen, first.flow.accepted], ['offer', { initiator: true, partner: false }]);
    assert.deepEqual(first.types, ['activity', 'accepted', 'updated']);
    flow = first.flow;
    assert.deepEqual(step(flow, accept('initiator')).types, ['activity'], 'accepting twice changes nothing');
    const second = step(flow, accept('partner'));
    assert.deepEqual([second.flow.screen, second.flow.accepted], ['confirm', { initiator: false, partner: false }]);
    assert.deepEqual(second.types, ['activity', 'accepted', 'confirmScreen']);
    assert.deepEqual(second.effects[1], { type: 'accepted', side: 'partner', screen: 'offer' });
  });

  it('an accept from too far is refused (TOO_FAR)', () => {
    assert.equal(refusal(openTradeFlow(), accept('initiator', 3)), 'TOO_FAR');
  });

  it('both accepting on the confirm screen swaps: completing at once, further accepts ignored, edits and cancels refused', () => {
    let flow = step(onConfirm(), accept('initiator')).flow;
    const swap = step(flow, accept('partner'));
    assert.equal(swap.flow.screen, 'completing');
    assert.deepEqual(swap.types, ['activity', 'accepted', 'swap']);
    flow = swap.flow;
    assert.deepEqual(step(flow, accept('initiator', 10)).types, [], 'ignored, not even TOO_FAR');
    assert.equal(refusal(flow, add('initiator')), 'TRADE_COMPLETING');
    assert.equal(refusal(flow, { type: 'remove', side: 'partner', tradeSlot: 0 }), 'TRADE_COMPLETING');
    assert.equal(refusal(flow, { type: 'cancel', side: 'partner' }), 'TRADE_COMPLETING');
    const done = step(flow, { type: 'swapCommitted' });
    assert.deepEqual([done.flow.screen, done.types], ['completed', ['completed']]);
  });

  it('a refused swap returns to screen 1 with the trimmed offers and both accepts reset', () => {
    let flow = step(onConfirm(), accept('initiator')).flow;
    flow = step(flow, accept('partner')).flow;
    const refused = step(flow, { type: 'swapRefused', offers: { initiator: [], partner: [] } });
    assert.deepEqual([refused.flow.screen, refused.flow.accepted, refused.flow.offers.initiator], ['offer', { initiator: false, partner: false }, []]);
    assert.deepEqual(refused.types, ['activity', 'swapRefused']);
  });

  it('a cancellation during the swap waits for its outcome: committed completes, refused cancels', () => {
    let flow = step(onConfirm(), accept('initiator')).flow;
    flow = step(flow, accept('partner')).flow;
    const waiting = step(flow, { type: 'abort', reason: 'disconnected' });
    assert.deepEqual([waiting.flow.screen, waiting.types], ['completing', []]);
    assert.equal(step(waiting.flow, { type: 'swapCommitted' }).flow.screen, 'completed');
    const cancelled = step(waiting.flow, { type: 'swapRefused', offers: waiting.flow.offers });
    assert.deepEqual([cancelled.flow.screen, cancelled.effects], ['cancelled', [{ type: 'cancelled', reason: 'disconnected' }]]);
  });

  it('a player cancels from either screen; a cancellation from outside names its reason', () => {
    const fromOffer = step(step(openTradeFlow(), add('partner')).flow, { type: 'cancel', side: 'partner' });
    assert.deepEqual([fromOffer.flow.screen, fromOffer.effects], ['cancelled', [{ type: 'cancelled', reason: 'cancelled', by: 'partner' }]]);
    const fromConfirm = step(onConfirm(), { type: 'cancel', side: 'initiator' });
    assert.deepEqual([fromConfirm.flow.screen, fromConfirm.effects], ['cancelled', [{ type: 'cancelled', reason: 'cancelled', by: 'initiator' }]]);
    assert.deepEqual(fromConfirm.flow.offers.initiator.length, 1, 'the offers stay for the audit row');
    const idle = step(onConfirm(), { type: 'abort', reason: 'idle_timeout' });
    assert.deepEqual(idle.effects, [{ type: 'cancelled', reason: 'idle_timeout' }]);
  });

  it('after the end, player actions are refused (TRADE_NOT_FOUND) and nothing else happens', () => {
    const cancelled = step(onConfirm(), { type: 'cancel', side: 'initiator' }).flow;
    let completed = step(onConfirm(), accept('initiator')).flow;
    completed = step(step(completed, accept('partner')).flow, { type: 'swapCommitted' }).flow;
    for (const ended of [cancelled, completed]) {
      assert.ok(tradeEnded(ended));
      for (const action of [add('initiator'), { type: 'remove', side: 'initiator', tradeSlot: 0 } as const, accept('partner'), { type: 'cancel', side: 'partner' } as const]) {
        assert.equal(refusal(ended, action), 'TRADE_NOT_FOUND', action.type);
      }
      assert.deepEqual(step(ended, { type: 'abort', reason: 'server_shutdown' }), { flow: ended, effects: [], types: [] });
      assert.deepEqual(step(ended, { type: 'swapCommitted' }).flow, ended);
    }
  });
});
