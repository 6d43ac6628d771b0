// A shop (docs/economy.md "Shops"): its stock with the price to buy, and what it pays; click buys one, a right
// click buys more. Inventory clicks sell while it is open.

import { h, fill } from '../../shared/dom.js';
import { itemFace } from './inventory-panel.js';

export function renderShop(element, state, context) {
  const shop = state.shop;
  element.hidden = !shop;
  if (!shop) return;
  const { send, world, menu } = context;
  const coins = (state.self?.inventory ?? []).reduce((sum, s) => sum + (s?.itemId === 'coins' ? s.quantity : 0), 0);
  fill(element,
    h('header', {},
      h('h2', { text: shop.name }),
      h('button', { type: 'button', class: 'close', title: 'Close', text: '×', onclick: () => context.close('shop') })),
    h('p', { class: 'muted', text: `You have ${coins.toLocaleString('en')} coins. Click to buy one; right click for more. Click your items to sell.` }),
    h('div', { class: 'grid shop-items' }, shop.items.map((stock) => {
      const name = world.itemName(stock.itemId);
      const buy = (quantity) => send('shop:buy', { storeId: shop.storeId, itemId: stock.itemId, quantity });
      return h('button', {
        type: 'button', class: `slot${stock.quantity === 0 ? ' out' : ''}`, dataset: { item: stock.itemId },
        title: `${name}: buy for ${stock.buyPrice}, sells for ${stock.sellPrice} (${stock.quantity} in stock)`,
        onclick: () => buy(1),
        oncontextmenu: (e) => { e.preventDefault(); menu.show(e.clientX, e.clientY, name, [1, 5, 10].map((n) => ({ label: `Buy ${n}`, run: () => buy(n) }))); },
      }, itemFace(world, { itemId: stock.itemId, quantity: stock.quantity }), h('span', { class: 'price', text: `${stock.buyPrice}gp` }));
    })));
}
