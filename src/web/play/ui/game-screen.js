// The game screen: the map (drawn every animation frame), the side panels, the overlays (dialogue, bank, shop,
// trade) and the chat box, each redrawn when the part of the state it shows has changed.

import { $ } from '../../shared/dom.js';
import { toScreen } from '../lib/camera.js';
import { renderBank } from './bank-panel.js';
import { ChatPanel } from './chat-panel.js';
import { renderDialogue } from './dialogue-panel.js';
import { Hud } from './hud.js';
import { renderEquipment, renderInventory } from './inventory-panel.js';
import { MapInput } from './map-input.js';
import { Menu } from './menu.js';
import { Renderer } from './renderer.js';
import { renderShop } from './shop-panel.js';
import { renderSocial } from './social-panel.js';
import { renderPrayer, renderQuests, renderSkills } from './stats-panels.js';
import { drawTerrain } from './terrain.js';
import { renderTrade, renderTradeRequests } from './trade-panel.js';

/** Which panels show which parts of the state (GameSession's change names). */
const PANELS = [
  ['panel-inventory', ['self', 'trade', 'bank', 'shop'], renderInventory],
  ['panel-equipment', ['self', 'bank'], renderEquipment],
  ['panel-skills', ['skills', 'self'], renderSkills],
  ['panel-quests', ['quests'], renderQuests],
  ['panel-prayer', ['prayer', 'skills'], renderPrayer],
  ['panel-social', ['social'], renderSocial],
  ['dialogue', ['dialogue', 'self'], renderDialogue],
  ['bank', ['bank'], renderBank],
  ['shop', ['shop', 'self'], renderShop],
  ['trade', ['trade'], renderTrade],
  ['trade-requests', ['trade'], renderTradeRequests],
];

export class GameScreen {
  /** @param {{ world: any, rest: any, leave: () => void }} context */
  constructor(context) {
    this.context = context;
    this.element = $('game');
    this.session = undefined;
    this.menu = new Menu($('menu'));
    this.renderer = new Renderer(/** @type {HTMLCanvasElement} */ ($('view')), drawTerrain(context.world));
    this.ui = { bankTab: 0 };
    this.chat = new ChatPanel({ log: $('chat-log'), form: /** @type {HTMLFormElement} */ ($('chat-form')), input: /** @type {HTMLInputElement} */ ($('chat-input')), target: /** @type {HTMLSelectElement} */ ($('chat-target')) },
      (type, data) => this.session?.send(type, data));
    this.hud = new Hud({ session: () => this.session, rest: context.rest, leave: context.leave });
    this.input = new MapInput(this.renderer.canvas, { session: () => this.session, view: () => this.currentView(), menu: this.menu, whisper: (name) => this.chat.whisper(name) });
    for (const tab of document.querySelectorAll('#side-tabs .tab')) {
      tab.addEventListener('click', () => this.showPanel(/** @type {HTMLElement} */ (tab).dataset.panel));
    }
    addEventListener('resize', () => this.renderer.resize());
    this.frame = this.frame.bind(this);
  }

  showPanel(name) {
    for (const tab of document.querySelectorAll('#side-tabs .tab')) tab.classList.toggle('active', /** @type {HTMLElement} */ (tab).dataset.panel === name);
    for (const panel of document.querySelectorAll('.side .panel')) /** @type {HTMLElement} */ (panel).hidden = panel.id !== `panel-${name}`;
  }

  /** Starts showing a session (a character in the world). */
  attach(session) {
    this.session = session;
    this.ui.bankTab = 0;
    session.run = /** @type {HTMLInputElement} */ ($('run-toggle')).checked;
    session.onChange((parts) => this.render(parts));
    this.element.hidden = false;
    this.renderer.resize();
    this.render(new Set(['self', 'world', 'skills', 'quests', 'prayer', 'social', 'bank', 'shop', 'trade', 'dialogue', 'activity', 'log', 'connection']));
    if (this.loop === undefined) this.loop = requestAnimationFrame(this.frame);
  }

  detach() {
    this.session = undefined;
    if (this.loop !== undefined) cancelAnimationFrame(this.loop);
    this.loop = undefined;
    this.element.hidden = true;
    this.menu.hide();
  }

  /** The panel context: what panels may do. */
  panelContext() {
    const session = this.session;
    return {
      world: this.context.world, state: session.state, menu: this.menu, ui: this.ui,
      send: (type, data) => session.send(type, data),
      log: (text) => session.note(text, 'game'),
      whisper: (name) => this.chat.whisper(name),
      close: (part) => { session.state[part] = null; this.render(new Set([part])); },
      refresh: (part) => this.render(new Set([part])),
    };
  }

  render(parts) {
    const session = this.session;
    if (!session) return;
    const context = this.panelContext();
    for (const [id, shows, render] of PANELS) if (shows.some((part) => parts.has(part))) render($(id), session.state, context);
    if (parts.has('log')) this.chat.render(session.state.log);
    if (parts.has('social')) this.chat.renderTargets(session.state.social.friends);
    this.hud.render(session, parts);
  }

  /** The camera now: centred on the player as drawn (camera.js View). */
  currentView() {
    const session = this.session;
    if (!session) return undefined;
    const self = session.selfEntity;
    const focus = self ? session.store.position(self, session.now()) : session.world.home;
    return this.renderer.view(focus.x + 0.5, focus.z + 0.5);
  }

  /** Where a tile's centre is on the page now (client pixels), e.g. to click it from a script. */
  pointOfTile(x, z) {
    const view = this.currentView();
    if (!view) return undefined;
    const { px, py } = toScreen(view, x + 0.5, z + 0.5);
    const rect = this.renderer.canvas.getBoundingClientRect();
    return { x: rect.left + (px * rect.width) / this.renderer.canvas.width, y: rect.top + (py * rect.height) / this.renderer.canvas.height };
  }

  /** @private One animation frame. */
  frame() {
    const session = this.session;
    if (!session) return;
    session.expire();
    this.renderer.draw({ now: session.now(), world: this.context.world, store: session.store, state: session.state, path: session.path, selfId: session.selfId, hover: this.input.hover });
    this.loop = requestAnimationFrame(this.frame);
  }
}
