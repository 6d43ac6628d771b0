// Getting into the game: an identity (anonymous, or a pasted token: a server token, or an identity provider's
// token to exchange), then a character (the account's, or a new one with a starting kit), then a world (the list
// with players and capacity, or the default: the fullest with room). The token is kept for this tab only.

import { $, h, fill } from '../../shared/dom.js';
import { ApiProblem } from '../lib/rest-client.js';

export const TOKEN_KEY = 'play.token';

export class LoginScreen {
  /**
   * @param {import('../lib/rest-client.js').RestClient} rest
   * @param {(entry: { token: string, options: object }) => Promise<void>} play enters the world (throws a refusal)
   */
  constructor(rest, play) {
    this.rest = rest;
    this.play = play;
    this.element = $('login');
    $('play-anonymously').addEventListener('click', () => this.guard(async () => {
      await this.rest.anonymous();
      await this.signedIn();
    }));
    $('token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.guard(() => this.useToken(/** @type {HTMLInputElement} */ ($('token-input')).value.trim()));
    });
    $('create-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const name = /** @type {HTMLInputElement} */ ($('new-name')).value.trim();
      const templateId = /** @type {HTMLSelectElement} */ ($('template')).value;
      this.guard(() => this.enter({ createCharacter: { name, ...(templateId ? { templateId } : {}) } }));
    });
    $('sign-out').addEventListener('click', () => {
      sessionStorage.removeItem(TOKEN_KEY);
      this.rest.token = undefined;
      $('characters').hidden = true;
      this.status('');
    });
  }

  show() {
    this.element.hidden = false;
  }

  hide() {
    this.element.hidden = true;
  }

  /** Resumes with the token this tab kept, if it still works. */
  async resume() {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!token) return false;
    this.rest.token = token;
    try {
      await this.rest.me();
      await this.signedIn();
      return true;
    } catch {
      sessionStorage.removeItem(TOKEN_KEY);
      this.rest.token = undefined;
      return false;
    }
  }

  /** @private A pasted server token, else an identity provider's token to exchange. */
  async useToken(token) {
    if (!token) return this.error('Paste a token first.');
    this.rest.token = token;
    try {
      await this.rest.me();
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 401) throw error;
      this.rest.token = undefined;
      await this.rest.exchange(token);
    }
    return this.signedIn();
  }

  /** @private */
  async signedIn() {
    sessionStorage.setItem(TOKEN_KEY, this.rest.token);
    this.status('Signed in. Pick or create a character.');
    const [characters, templates, worlds] = await Promise.all([this.rest.characters(), this.rest.templates(), this.rest.worlds()]);
    fill($('character-list'), characters.length === 0
      ? h('li', { class: 'muted', text: 'No character yet: create one below.' })
      : characters.map((c) => h('li', {},
        h('span', { class: 'name', text: c.name }),
        h('span', { class: 'muted', text: ` combat ${c.combatLevel}${c.online ? ' · in the world' : ''}` }),
        h('button', { type: 'button', class: 'play', dataset: { character: c.id }, text: 'Play', onclick: () => this.guard(() => this.enter({ characterId: c.id })) }))));
    fill($('template'), h('option', { value: '', text: 'No starting kit' }),
      templates.map((t) => h('option', { value: t.id, text: `${t.name}: ${t.description}` })));
    if (templates.some((t) => t.id === 'wanderer')) /** @type {HTMLSelectElement} */ ($('template')).value = 'wanderer';
    fill($('world-select'), h('option', { value: '', text: 'Any world (the fullest with room)' }),
      worlds.map((w) => h('option', { value: String(w.world), disabled: w.status !== 'open', text: `World ${w.world}: ${w.players} / ${w.capacity} players${w.status === 'open' ? '' : ` (${w.status})`}` })));
    $('characters').hidden = false;
  }

  /** @private */
  async enter(options) {
    const world = Number(/** @type {HTMLSelectElement} */ ($('world-select')).value);
    this.error('');
    await this.play({ token: this.rest.token, options: { ...options, ...(world ? { world } : {}) } });
  }

  /** @private Runs a step; a refusal becomes the readable line under the form. */
  async guard(step) {
    try {
      await step();
    } catch (error) {
      this.error(error?.message ?? String(error));
    }
  }

  status(text) {
    $('identity-status').textContent = text;
  }

  error(text) {
    $('login-error').textContent = text;
    if (text && $('characters').hidden) this.status(text);
  }
}
