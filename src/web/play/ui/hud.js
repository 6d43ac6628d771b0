// The bar above the map: who and where the player is, the connection, and the actions that are not about a
// thing on the map — run, stop, home teleport (docs/economy.md), hopping worlds (docs/worlds.md), leaving.

import { $, h, fill } from '../../shared/dom.js';

const CONNECTION_TEXT = {
  connecting: 'connecting…', authenticated: 'signed in', entering: 'entering…', 'in-world': 'connected',
  reconnecting: 'connection lost: reconnecting…', closed: 'disconnected',
};

export class Hud {
  /** @param {{ session: () => any, rest: any, leave: () => void }} context */
  constructor(context) {
    this.context = context;
    $('run-toggle').addEventListener('change', (event) => {
      const session = context.session();
      if (session) session.run = /** @type {HTMLInputElement} */ (event.target).checked;
    });
    $('stop-button').addEventListener('click', () => context.session()?.send('player:action', { action: 'stop' }));
    $('home-button').addEventListener('click', () => context.session()?.send('player:homeTeleport', {}));
    $('hop-select').addEventListener('focus', () => void this.loadWorlds());
    $('hop-button').addEventListener('click', () => {
      const world = Number(/** @type {HTMLSelectElement} */ ($('hop-select')).value);
      const session = context.session();
      if (!world || !session) return;
      session.connection.hop(world).catch(() => { /* the refusal is in the chat box already */ });
    });
    $('leave-button').addEventListener('click', () => context.leave());
  }

  /** The world list for hopping (public, cached 2 s by the server). */
  async loadWorlds() {
    try {
      const worlds = await this.context.rest.worlds();
      const current = this.context.session()?.state.world?.world;
      const select = /** @type {HTMLSelectElement} */ ($('hop-select'));
      const chosen = select.value === String(current) ? '' : select.value;
      fill(select, h('option', { value: '', text: 'Hop to world…' }), worlds.map((w) => h('option', {
        value: String(w.world), disabled: w.world === current || w.status !== 'open',
        text: `World ${w.world} (${w.players}/${w.capacity})${w.world === current ? ' · here' : ''}`,
      })));
      if (chosen) select.value = chosen;
    } catch {
      // the list is a convenience; hopping by number still works
    }
  }

  render(session, parts) {
    const { state } = session;
    if (parts.has('self') || parts.has('world') || parts.has('skills')) {
      const self = state.self;
      $('hud-name').textContent = self?.name ?? '';
      $('hud-world').textContent = state.world?.world ?? self?.world ?? '–';
      $('hud-health').textContent = self ? `${self.health} / ${self.maxHealth}` : '–';
      $('hud-combat').textContent = self?.combatLevel ?? state.combatLevel ?? '–';
    }
    if (parts.has('world')) void this.loadWorlds();
    if (parts.has('prayer')) $('hud-prayer').textContent = `${state.prayer.points} / ${state.prayer.maxPoints}`;
    if (parts.has('activity')) {
      const activity = state.activity;
      const teleport = state.teleport;
      $('hud-activity').textContent = teleport ? 'casting home teleport…' : activity ? `${activity.action}ing` : '';
      $('stop-button').hidden = !activity;
    }
    if (parts.has('connection')) {
      const { state: connectionState } = session.connection;
      const status = $('connection-status');
      status.textContent = CONNECTION_TEXT[connectionState] ?? connectionState;
      status.dataset.state = connectionState;
    }
  }
}
