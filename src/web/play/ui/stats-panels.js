// Skills (levels and XP, docs/skills.md), quests and their state (docs/quests.md), and prayers to switch on and
// off (docs/protocol.md "Prayer").

import { h, fill } from '../../shared/dom.js';

export function renderSkills(element, state) {
  const total = state.skills.reduce((sum, s) => sum + s.level, 0);
  fill(element,
    h('p', { class: 'summary', text: `Combat level ${state.self?.combatLevel ?? state.combatLevel ?? '–'} · total level ${total}` }),
    h('table', { class: 'skills' },
      h('thead', {}, h('tr', {}, h('th', { text: 'Skill' }), h('th', { text: 'Level' }), h('th', { text: 'XP' }))),
      h('tbody', {}, state.skills.map((s) => h('tr', { dataset: { skill: s.skill } },
        h('td', { text: s.skill }), h('td', { class: 'num', text: String(s.level) }), h('td', { class: 'num', text: Math.floor(s.xp).toLocaleString('en') }))))));
}

const STATUS = { 'not-started': 'not started', 'in-progress': 'in progress', completed: 'completed' };

export function renderQuests(element, state) {
  fill(element,
    h('p', { class: 'summary', text: `Quest points: ${state.quests.questPoints}` }),
    h('ul', { class: 'quests' }, state.quests.quests.map((q) => h('li', { class: `quest ${q.status}`, dataset: { quest: q.questId } },
      h('div', {}, h('b', { text: q.name }), ' ', h('span', { class: 'muted', text: `(${q.difficulty}) · ${STATUS[q.status] ?? q.status}` })),
      h('div', { class: 'muted', text: q.status === 'completed' ? 'Quest complete.' : `${q.description} (stage ${q.stage} of ${q.finalStage})` })))));
}

export function renderPrayer(element, state, context) {
  const level = state.skills.find((s) => s.skill === 'prayer')?.level ?? 1;
  const active = new Set(state.prayer.active);
  fill(element,
    h('p', { class: 'summary', text: `Prayer points ${state.prayer.points} / ${state.prayer.maxPoints}` }),
    h('div', { class: 'prayers' }, context.world.prayers.map((prayer) => h('button', {
      type: 'button',
      class: `prayer${active.has(prayer.id) ? ' active' : ''}${prayer.level > level ? ' locked' : ''}`,
      title: `${prayer.description} (level ${prayer.level}, ${prayer.group})`,
      'aria-pressed': active.has(prayer.id) ? 'true' : 'false',
      dataset: { prayer: prayer.id },
      onclick: () => context.send(active.has(prayer.id) ? 'prayer:deactivate' : 'prayer:activate', { prayerId: prayer.id }),
    }, h('b', { text: prayer.name }), h('small', { text: `lvl ${prayer.level}` })))));
}
