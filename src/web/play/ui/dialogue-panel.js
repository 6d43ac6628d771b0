// Talking to an NPC (docs/protocol.md "NPC dialogue and quests"): the line said, then the options this player may
// choose (by their `index`), or Continue on a node that has none.

import { h, fill } from '../../shared/dom.js';

export function renderDialogue(element, state, context) {
  const dialogue = state.dialogue;
  element.hidden = !dialogue;
  if (!dialogue) return;
  const { send } = context;
  const speaker = dialogue.speaker === 'player' ? (state.self?.name ?? 'You') : dialogue.npc.name;
  fill(element,
    h('header', {}, h('h2', { text: dialogue.npc.name }), h('button', { type: 'button', class: 'close', title: 'Close', text: '×', onclick: () => send('dialogue:close', {}) })),
    h('p', { class: 'speech' }, h('b', { text: `${speaker}: ` }), dialogue.text),
    dialogue.canContinue
      ? h('button', { type: 'button', class: 'option', dataset: { continue: '' }, text: 'Click here to continue', onclick: () => send('dialogue:continue', {}) })
      : h('ol', { class: 'options' }, (dialogue.options ?? []).map((option) => h('li', {},
        h('button', { type: 'button', class: 'option', dataset: { option: String(option.index) }, text: option.text, onclick: () => send('dialogue:choose', { option: option.index }) })))));
}
