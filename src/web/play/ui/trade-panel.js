// Trading with another player (docs/trading.md): answering a request, the offer screen (click an inventory item
// to offer it, one of yours here to take it back), the confirmation screen with both values, and the anti-scam
// warning whenever the other player took something back. Accepting twice completes the trade.

import { h, fill } from '../../shared/dom.js';

function offerList(side, world, onClick) {
  if (side.items.length === 0) return h('p', { class: 'muted', text: 'Nothing.' });
  return h('ul', { class: 'offer' }, side.items.map((item, tradeSlot) => {
    const text = `${item.quantity > 1 ? `${item.quantity.toLocaleString('en')} × ` : ''}${item.name ?? world.itemName(item.itemId)}`;
    return h('li', { dataset: { item: item.itemId, tradeSlot: String(tradeSlot) } },
      onClick ? h('button', { type: 'button', class: 'link', title: 'Take back', text, onclick: () => onClick(tradeSlot) }) : text,
      h('span', { class: 'value', text: `${item.value.toLocaleString('en')} gp` }));
  }));
}

function warning(trade, world) {
  if (trade.removed.length === 0) return null;
  const lines = trade.removed.map((r) => `${r.quantity.toLocaleString('en')} × ${r.name ?? world.itemName(r.itemId)}`);
  return h('p', { class: 'warning', role: 'alert', id: 'trade-warning' },
    h('b', { text: 'Warning: ' }), `${trade.partnerName} has removed ${lines.join(', ')} from their offer. Check the trade before accepting.`);
}

export function renderTradeRequests(element, state, context) {
  element.hidden = state.tradeRequests.length === 0 || Boolean(state.trade);
  fill(element, state.tradeRequests.map((request) => h('div', { class: 'request', dataset: { trade: request.tradeId } },
    h('span', { text: `${request.fromPlayerName} wishes to trade with you.` }),
    h('button', { type: 'button', class: 'accept', text: 'Accept', onclick: () => context.send('tradeRequestRespond', { tradeId: request.tradeId, accept: true }) }),
    h('button', { type: 'button', class: 'decline', text: 'Decline', onclick: () => context.send('tradeRequestRespond', { tradeId: request.tradeId, accept: false }) }))));
}

export function renderTrade(element, state, context) {
  const trade = state.trade;
  element.hidden = !trade;
  if (!trade) return;
  const { send, world } = context;
  const { tradeId } = trade;
  const confirm = trade.screen === 'confirm';
  const status = trade.my.accepted ? 'Waiting for the other player…' : trade.their.accepted ? 'The other player has accepted.' : '';
  const values = trade.values;
  const gain = values ? values.difference : trade.their.value - trade.my.value;
  fill(element,
    h('header', {}, h('h2', { text: confirm ? `Are you sure? Trading with ${trade.partnerName}` : `Trading with ${trade.partnerName}` })),
    warning(trade, world),
    h('div', { class: 'trade-sides' },
      h('section', { class: 'side mine' }, h('h3', { text: `Your offer (${trade.my.value.toLocaleString('en')} gp)` }),
        offerList(trade.my, world, confirm ? undefined : (tradeSlot) => send('tradeRemoveItem', { tradeId, tradeSlot }))),
      h('section', { class: 'side theirs' }, h('h3', { text: `${trade.partnerName}'s offer (${trade.their.value.toLocaleString('en')} gp)` }),
        offerList(trade.their, world))),
    h('p', { class: gain < 0 ? 'value-loss' : 'value-gain', id: 'trade-value',
      text: gain === 0 ? 'Both offers are worth the same.' : gain > 0 ? `You gain ${gain.toLocaleString('en')} gp of value.` : `You lose ${(-gain).toLocaleString('en')} gp of value.` }),
    h('p', { class: 'muted', id: 'trade-status', text: confirm ? `Screen 2 of 2. ${status}` : `Screen 1 of 2: click your items to offer them. ${status}` }),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'trade-accept', class: 'accept', disabled: trade.my.accepted, text: 'Accept', onclick: () => send('tradeAccept', { tradeId }) }),
      h('button', { type: 'button', id: 'trade-decline', class: 'decline', text: 'Decline', onclick: () => send('tradeCancel', { tradeId }) })));
}
