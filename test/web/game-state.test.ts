/** The player's own state on the play page, kept from the events the docs describe (their own examples). */
import assert from 'node:assert/strict';
import { applyEvent, createGameState, expireEffects } from '../../src/web/play/lib/game-state.js';
import { humanize, refusalText, stopText } from '../../src/web/play/lib/messages.js';

// Payloads and state are read field by field, as a page does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;

const NAMES: Record<string, string> = { coins: 'Coins', iron_sword: 'Iron sword', bread: 'Bread', logs: 'Logs' };
const context = (now = 1000) => ({ now, itemName: (id: string) => NAMES[id] ?? id });

describe('play page: the game state', () => {
  it('shows every refusal as a readable line, never silence (error and tradeError)', () => {
    const state: Data = createGameState();
    assert.deepEqual(applyEvent(state, 'error', { code: 'BLOCKED', message: 'the target tile cannot be walked on', event: 'player:move' }, context()), ['log']);
    applyEvent(state, 'tradeError', { code: 'TOO_FAR' }, context());
    assert.deepEqual(state.log.map((l: { text: string; channel: string }) => [l.channel, l.text]), [['error', 'the target tile cannot be walked on.'], ['error', 'Too far.']]);
    assert.equal(state.log[0].code, 'BLOCKED');
  });

  it('follows a trade through both screens, keeping the anti-scam warning once the partner took something back', () => {
    const state: Data = createGameState();
    applyEvent(state, 'tradeIncoming', { tradeId: 't1', fromPlayerId: 'b', fromPlayerName: 'Bo' }, context());
    assert.equal(state.tradeRequests.length, 1);
    applyEvent(state, 'tradeStarted', { tradeId: 't1', partnerId: 'b', partnerName: 'Bo', roomId: 'r' }, context());
    assert.equal(state.tradeRequests.length, 0);
    assert.equal(state.trade.screen, 'offer');
    // docs/trading.md's example: the partner reduced an entry.
    applyEvent(state, 'tradeUpdated', { tradeId: 't1', screen: 'offer',
      myOffer: { items: [{ tradeSlot: 0, inventorySlot: 3, itemId: 'coins', name: 'Coins', quantity: 40, value: 40 }], accepted: false, value: 40 },
      theirOffer: { items: [], accepted: true, value: 0 },
      partnerRemoved: [{ tradeSlot: 1, inventorySlot: 5, itemId: 'iron_sword', name: 'Iron sword', quantity: 1, remaining: 0 }] }, context());
    assert.equal(state.trade.my.value, 40);
    assert.equal(state.trade.their.accepted, true);
    assert.equal(state.trade.removed.length, 1);
    applyEvent(state, 'tradeUpdated', { tradeId: 't1', screen: 'offer', myOffer: state.trade.my, theirOffer: state.trade.their, partnerRemoved: [] }, context());
    assert.equal(state.trade.removed.length, 1, 'the warning stays for the rest of the trade');
    applyEvent(state, 'tradeConfirmScreen', { tradeId: 't1', myOffer: state.trade.my, theirOffer: state.trade.their, values: { myValue: 40, theirValue: 0, difference: -40 } }, context());
    assert.equal(state.trade.screen, 'confirm');
    assert.equal(state.trade.values.difference, -40);
    applyEvent(state, 'tradeUpdated', { tradeId: 'other', screen: 'offer', myOffer: { items: [] }, theirOffer: { items: [] } }, context());
    assert.equal(state.trade.screen, 'confirm', 'an event of another trade changes nothing');
    assert.deepEqual(applyEvent(state, 'tradeCompleted', { tradeId: 't1', receivedItems: [{ itemId: 'bread', quantity: 3 }] }, context()), ['trade', 'log']);
    assert.equal(state.trade, null);
    assert.equal(state.log.at(-1).text, 'Trade completed: you received 3 × Bread.');
  });

  it('says why a trade or a request ended', () => {
    const state: Data = createGameState();
    applyEvent(state, 'tradeIncoming', { tradeId: 't2', fromPlayerId: 'b', fromPlayerName: 'Bo' }, context());
    applyEvent(state, 'tradeCancelled', { tradeId: 't2', reason: 'request_expired', message: 'x' }, context());
    assert.equal(state.tradeRequests.length, 0);
    assert.equal(state.log.at(-1).text, 'The trade request expired.');
  });

  it('keeps skills, XP drops, the bank, a shop and the inventory from their events', () => {
    const state: Data = createGameState();
    applyEvent(state, 'skills:state', { skills: [{ skill: 'woodcutting', level: 1, xp: 0 }], combatLevel: 3 }, context());
    applyEvent(state, 'skill:xp', { skill: 'woodcutting', amount: 25, xp: 25, level: 1 }, context(1000));
    assert.deepEqual(state.skills, [{ skill: 'woodcutting', level: 1, xp: 25 }]);
    assert.equal(state.xpDrops.length, 1);
    expireEffects(state, 1000 + 5000);
    assert.equal(state.xpDrops.length, 0);
    applyEvent(state, 'bank:state', { tabs: [{ index: 0, name: 'main', items: [{ itemId: 'logs', quantity: 1 }] }], distinctItems: 1, capacity: 400 }, context());
    assert.equal(state.bank.tabs[0].items[0].itemId, 'logs');
    applyEvent(state, 'shop:state', { storeId: 's', name: 'Shop', kind: 'general', items: [], last: { action: 'bought', itemId: 'bread', quantity: 2, coins: 24 } }, context());
    assert.equal(state.log.at(-1).text, 'You bought 2 × Bread for 24 coins.');
    applyEvent(state, 'player:sync', { id: 'c0', name: 'Ava', inventory: [{ itemId: 'logs', quantity: 1 }, null] }, context());
    applyEvent(state, 'player:sync', { health: 90 }, context());
    assert.equal(state.self.name, 'Ava', 'a partial sync keeps the rest');
    assert.equal(state.self.health, 90);
  });

  it('public chat goes in the log and above the speaker\'s head, for a while', () => {
    const state: Data = createGameState();
    applyEvent(state, 'chat:message', { fromId: 'c0', fromName: 'Ava', message: 'hello world', channel: 'public', timestamp: '2026-11-22T05:00:00.000Z' }, context(0));
    assert.equal(state.log[0].from, 'Ava');
    assert.equal(state.bubbles.get('c0').text, 'hello world');
    expireEffects(state, 10_000);
    assert.equal(state.bubbles.size, 0);
  });

  it('dialogue nodes replace each other until closed; activities stop with a reason', () => {
    const state: Data = createGameState();
    applyEvent(state, 'dialogue:open', { npc: { id: 'npc-5', npcId: 'old_tamsin', name: 'Old Tamsin' }, nodeId: 'greet', text: 'Hi', options: [{ index: 0, text: 'Your locket?' }], canContinue: false }, context());
    assert.equal(state.dialogue.nodeId, 'greet');
    applyEvent(state, 'dialogue:closed', { npc: {}, reason: 'WALKED_AWAY' }, context());
    assert.equal(state.dialogue, null);
    applyEvent(state, 'action:started', { action: 'gather', targetId: 'res-0' }, context());
    assert.deepEqual(applyEvent(state, 'action:stopped', { action: 'gather', targetId: 'res-0', reason: 'INVENTORY_FULL' }, context()), ['activity', 'log']);
    assert.equal(state.log.at(-1).text, 'Your inventory is full.');
    assert.deepEqual(applyEvent(state, 'action:stopped', { action: 'gather', reason: 'MOVED' }, context()), ['activity'], 'walking away is not news');
  });

  it('words codes that come without a message', () => {
    assert.equal(humanize('NOT_NEAR_BANK'), 'Not near bank');
    assert.equal(refusalText({ code: 'WORLD_FULL' }), 'World full.');
    assert.equal(refusalText({ code: 'X', message: 'Stand within 2 tiles of the NPC to talk' }), 'Stand within 2 tiles of the NPC to talk.');
    assert.equal(stopText({ reason: 'NO_AXE_HERE' }), 'No axe here.');
  });
});
