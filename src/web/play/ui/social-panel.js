// Friends (with the world each one is in), friend requests, and the ignore list (docs/skills.md "Social rules",
// docs/protocol.md "Social across worlds"). Names typed here go to the server as `{name}`.

import { h, fill } from '../../shared/dom.js';

function nameForm(label, event, send, id) {
  const input = h('input', { type: 'text', maxlength: '12', placeholder: 'Name', 'aria-label': label, id });
  return h('form', {
    class: 'inline-form',
    onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (name) send(event, { name });
      input.value = '';
    },
  }, input, h('button', { type: 'submit', text: label }));
}

export function renderSocial(element, state, context) {
  const { send, whisper } = context;
  const { friends, incoming, outgoing, ignores } = state.social;
  const person = (entry, ...buttons) => h('li', { dataset: { character: entry.characterId } }, h('span', { class: 'name', text: entry.name }), ...buttons);
  const button = (text, run) => h('button', { type: 'button', class: 'small', text, onclick: run });
  fill(element,
    h('h3', { text: `Friends (${friends.length})` }),
    h('ul', { class: 'people', id: 'friend-list' }, friends.map((f) => person(f,
      h('span', { class: f.online ? 'online' : 'offline', text: f.online ? `world ${f.world}` : 'offline' }),
      button('Message', () => whisper(f.name)),
      button('Remove', () => send('friend:remove', { characterId: f.characterId }))))),
    incoming.length ? h('h3', { text: 'Friend requests' }) : null,
    h('ul', { class: 'people' }, incoming.map((f) => person(f,
      button('Accept', () => send('friend:accept', { characterId: f.characterId })),
      button('Decline', () => send('friend:decline', { characterId: f.characterId }))))),
    outgoing.length ? h('p', { class: 'muted', text: `Waiting for: ${outgoing.map((f) => f.name).join(', ')}` }) : null,
    nameForm('Add friend', 'friend:request', send, 'add-friend'),
    h('h3', { text: `Ignored (${ignores.length})` }),
    h('ul', { class: 'people' }, ignores.map((f) => person(f, button('Unignore', () => send('ignore:remove', { characterId: f.characterId }))))),
    nameForm('Ignore', 'ignore:add', send, 'add-ignore'));
}
