// The bank (docs/economy.md "Bank"): its tabs, withdrawing (click: one; right click: more), depositing the
// inventory or what is worn, and tabs made, renamed, deleted. Inventory clicks deposit while it is open.

import { h, fill } from '../../shared/dom.js';
import { itemFace } from './inventory-panel.js';

export function renderBank(element, state, context) {
  const bank = state.bank;
  element.hidden = !bank;
  if (!bank) return;
  const { send, world, menu, ui } = context;
  const shownTab = bank.tabs.find((t) => t.index === ui.bankTab) ?? bank.tabs[0];
  const tabName = h('input', { type: 'text', maxlength: '20', placeholder: 'Tab name', 'aria-label': 'Tab name' });
  fill(element,
    h('header', {},
      h('h2', { text: `Bank (${bank.distinctItems} / ${bank.capacity})` }),
      h('button', { type: 'button', class: 'close', title: 'Close', text: '×', onclick: () => context.close('bank') })),
    h('nav', { class: 'tabs' }, bank.tabs.map((tab) => h('button', {
      type: 'button', class: tab.index === shownTab.index ? 'tab active' : 'tab', dataset: { tab: String(tab.index) },
      text: tab.index === 0 ? 'Main' : tab.name,
      onclick: () => { ui.bankTab = tab.index; context.refresh('bank'); },
    }))),
    h('div', { class: 'grid bank-items' }, shownTab.items.map((stack, index) => {
      const name = world.itemName(stack.itemId);
      const withdraw = (quantity) => send('bank:withdraw', { tab: shownTab.index, index, quantity });
      const choices = [
        { label: 'Withdraw 1', run: () => withdraw(1) },
        { label: 'Withdraw 10', run: () => withdraw(10) },
        { label: 'Withdraw all', run: () => withdraw('all') },
        ...bank.tabs.filter((t) => t.index !== shownTab.index).map((t) => ({
          label: `Move to ${t.index === 0 ? 'main' : t.name}`, run: () => send('bank:tab:move', { tab: shownTab.index, index, toTab: t.index }),
        })),
      ];
      return h('button', {
        type: 'button', class: 'slot', title: `${name} × ${stack.quantity}`, dataset: { item: stack.itemId },
        onclick: () => withdraw(1),
        oncontextmenu: (e) => { e.preventDefault(); menu.show(e.clientX, e.clientY, name, choices); },
      }, itemFace(world, stack));
    })),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'bank-deposit-all', text: 'Deposit inventory', onclick: () => send('bank:depositAll', {}) }),
      h('button', { type: 'button', text: 'Deposit worn items', onclick: () => send('bank:depositEquipment', {}) }),
      h('form', {
        class: 'inline-form',
        onsubmit: (e) => { e.preventDefault(); if (tabName.value.trim()) send('bank:tab:create', { name: tabName.value.trim() }); },
      }, tabName, h('button', { type: 'submit', text: 'New tab' })),
      shownTab.index > 0 ? h('button', { type: 'button', text: 'Rename tab', onclick: () => tabName.value.trim() && send('bank:tab:rename', { tab: shownTab.index, name: tabName.value.trim() }) }) : null,
      shownTab.index > 0 ? h('button', { type: 'button', text: 'Delete tab', onclick: () => send('bank:tab:delete', { tab: shownTab.index }) }) : null));
}
