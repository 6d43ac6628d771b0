// The inventory (28 slots) and the worn equipment (docs/economy.md). A left click does the first choice, a right
// click lists them all; what a slot offers follows what is open: a trade (offer), the bank (deposit), a shop
// (sell), or nothing (eat, wield, bury, drop).

import { h, fill } from '../../shared/dom.js';

export const EQUIPMENT_SLOTS = ['head', 'cape', 'neck', 'ammunition', 'weapon', 'body', 'shield', 'legs', 'hands', 'feet', 'ring'];

function useChoice(item, slot, stack, send) {
  if (item?.equipment) {
    const verb = item.equipment.slot === 'weapon' || item.equipment.slot === 'shield' ? 'Wield' : 'Wear';
    return { label: verb, run: () => send('equipment:equip', { inventorySlot: slot, itemId: stack.itemId }) };
  }
  const verb = item?.heal ? 'Eat' : item?.prayerXp ? 'Bury' : 'Use';
  return { label: verb, run: () => send('inventory:use', { slot, itemId: stack.itemId }) };
}

/** The choices for one occupied slot, the default first. */
export function slotChoices(slot, stack, state, context) {
  const { world, send, log } = context;
  const item = world.items.get(stack.itemId);
  const examine = { label: 'Examine', run: () => log(item?.examine ?? world.itemName(stack.itemId)) };
  const amounts = (verb, act) => [1, 5, 10, 'all'].filter((n) => n === 'all' || n === 1 || stack.quantity >= n)
    .map((n) => ({ label: `${verb} ${n === 'all' ? 'all' : n}`, run: () => act(n) }));
  if (state.trade) {
    const { tradeId } = state.trade;
    return [...amounts('Offer', (n) => send('tradeAddItem', { tradeId, inventorySlot: slot, quantity: n === 'all' ? stack.quantity : n })), examine];
  }
  if (state.bank) return [...amounts('Deposit', (n) => send('bank:deposit', { slot, quantity: n })), examine];
  if (state.shop) {
    const { storeId } = state.shop;
    return [...amounts('Sell', (n) => send('shop:sell', { storeId, slot, quantity: n === 'all' ? stack.quantity : n })), examine];
  }
  const choices = [useChoice(item, slot, stack, send), { label: 'Drop', run: () => send('inventory:drop', { slot }) }];
  if (stack.quantity > 1) choices.push({ label: 'Drop 1', run: () => send('inventory:drop', { slot, quantity: 1 }) });
  choices.push(examine);
  return choices;
}

function quantityText(quantity) {
  if (quantity < 100_000) return String(quantity);
  if (quantity < 10_000_000) return `${Math.floor(quantity / 1000)}K`;
  return `${Math.floor(quantity / 1_000_000)}M`;
}

/** What kind of thing an item is, for its colour: coins, food, something worn, or anything else. */
function itemKind(item, itemId) {
  if (itemId === 'coins') return 'coins';
  if (item?.heal) return 'food';
  if (item?.equipment) return 'gear';
  return 'other';
}

/** A slot's face: the item's name (coloured by kind) and its quantity; the tooltip repeats both. */
export function itemFace(world, stack) {
  const name = world.itemName(stack.itemId);
  return [
    h('span', { class: `item-name ${itemKind(world.items.get(stack.itemId), stack.itemId)}`, text: name }),
    stack.quantity > 1 ? h('span', { class: 'qty', text: quantityText(stack.quantity) }) : null,
  ];
}

/** How much of each inventory slot the player has put in the open trade (still in the slot until the swap). */
function offeredBySlot(state) {
  const offered = new Map();
  for (const item of state.trade?.my.items ?? []) offered.set(item.inventorySlot, (offered.get(item.inventorySlot) ?? 0) + item.quantity);
  return offered;
}

export function renderInventory(element, state, context) {
  const slots = state.self?.inventory ?? [];
  const offered = offeredBySlot(state);
  fill(element, slots.map((stack, slot) => {
    if (!stack) return h('div', { class: 'slot empty', dataset: { slot: String(slot) } });
    const name = context.world.itemName(stack.itemId);
    const choices = () => slotChoices(slot, stack, state, context);
    const inTrade = offered.get(slot) ?? 0;
    return h('button', {
      type: 'button', class: inTrade >= stack.quantity ? 'slot offered' : 'slot',
      title: `${name}${stack.quantity > 1 ? ` × ${stack.quantity}` : ''}${inTrade ? ` (${inTrade} offered)` : ''}`,
      dataset: { slot: String(slot), item: stack.itemId },
      onclick: () => choices()[0].run(),
      oncontextmenu: (event) => {
        event.preventDefault();
        context.menu.show(event.clientX, event.clientY, name, choices());
      },
    }, itemFace(context.world, stack));
  }));
}

export function renderEquipment(element, state, context) {
  const worn = state.self?.equipment ?? {};
  const bonuses = state.self?.bonuses ?? {};
  fill(element,
    h('div', { class: 'equipment-grid' }, EQUIPMENT_SLOTS.map((slot) => {
      const stack = worn[slot];
      if (!stack) return h('div', { class: 'slot empty', title: slot, dataset: { equip: slot } }, h('span', { class: 'slot-name', text: slot }));
      const name = context.world.itemName(stack.itemId);
      return h('button', {
        type: 'button', class: 'slot', title: `${name} (${slot}): click to take off`, dataset: { equip: slot, item: stack.itemId },
        onclick: () => (context.state.bank
          ? context.send('bank:depositEquipment', { slot })
          : context.send('equipment:unequip', { slot })),
      }, itemFace(context.world, stack));
    })),
    h('dl', { class: 'bonuses' }, Object.entries(bonuses).flatMap(([name, value]) => [h('dt', { text: name }), h('dd', { text: String(value) })])));
}
