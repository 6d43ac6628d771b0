// One character's time in the world, as the page holds it: the connection's events fed into the entity store,
// the player's own state, the path shown and the walk-then-act option in progress; and what the player does,
// sent as the documented events. Listeners hear which parts changed. No DOM.

import { optionsFor } from './actions.js';
import { EntityStore } from './entity-store.js';
import { applyEvent, createGameState, expireEffects } from './game-state.js';
import { PathDisplay } from './path-display.js';
import { WalkThenAct } from './walk-then-act.js';

export class GameSession {
  /**
   * @param {{ connection: import('./protocol-client.js').GameConnection, world: any, now?: () => number }} options
   *   world: from buildWorldData (names, tiles)
   */
  constructor(options) {
    this.connection = options.connection;
    this.world = options.world;
    this.now = options.now ?? (() => Date.now());
    this.store = new EntityStore();
    this.state = createGameState();
    this.path = new PathDisplay();
    this.walker = new WalkThenAct();
    this.run = false;
    /** @type {Set<(parts: Set<string>) => void>} */
    this.listeners = new Set();
    this.unsubscribe = [
      this.connection.on('*', (data, type) => this.handle(type, data)),
      this.connection.on('connection', () => this.notify(['connection'])),
    ];
  }

  /** The character's id once the server said it (`player:sync`). */
  get selfId() {
    return this.state.self?.id;
  }

  /** The player as drawn, from the entity store (its position there moves tick by tick). */
  get selfEntity() {
    return this.selfId ? this.store.get('player', this.selfId) : undefined;
  }

  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @private */
  notify(parts) {
    if (parts.length === 0) return;
    const set = new Set(parts);
    for (const listener of this.listeners) listener(set);
  }

  /** @private */
  handle(type, data) {
    const now = this.now();
    if (type === 'world:update') {
      // The first frame of a view (entering, hopping, reconnecting) adds the player itself, with everything around
      // it: whatever was held from before belongs to another view.
      if (this.selfId && (data.added ?? []).some((e) => e.kind === 'player' && e.id === this.selfId)) this.store.clear();
      const before = this.selfEntity;
      const beforeAt = before ? `${before.x},${before.z}` : undefined;
      this.store.apply(data, now);
      const self = this.selfEntity;
      if (self && `${self.x},${self.z}` !== beforeAt) {
        this.path.trim(self.x, self.z);
        this.stepWalker();
      }
      this.notify(['entities']);
      return;
    }
    if (type === 'player:path') {
      this.path.accepted(data);
      this.stepWalker();
      this.notify(['path']);
      return;
    }
    if (type === 'error' && data.event === 'player:move') {
      this.path.refused();
      this.walker.cancel();
    }
    if (type === 'player:died' || type === 'homeTeleport:completed' || type === 'world:hopped') this.path.clear();
    this.notify(applyEvent(this.state, type, data, { now, itemName: this.world.itemName }));
  }

  /** Sends an event as it is; the answer comes back as events. */
  send(type, data = {}) {
    if (type === 'player:move') {
      if ('x' in data) this.path.requested(data.x, data.z);
      this.walker.cancel();
    }
    if (!this.connection.send(type, data)) this.note('Not connected: try again in a moment.');
  }

  /** Walks to a tile (the left click on open ground). */
  walkTo(x, z) {
    this.send('player:move', { x, z, ...(this.run ? { run: true } : {}) });
  }

  /** The options a click offers (actions.js), the default first. */
  options(target) {
    return optionsFor(target, { world: this.world, selfId: this.selfId, run: this.run });
  }

  /** Does one option: sends its event, or walks within reach first. */
  choose(option) {
    if (option.local === 'examine') return this.note(option.text, 'game');
    if (!option.near) return this.send(option.event, option.data);
    const self = this.selfEntity ?? this.state.self;
    if (!self) return undefined;
    const step = this.walker.start(option, { x: self.x, z: self.z }, (kind, id) => this.store.get(kind, id), this.world, this.run);
    return this.follow(step);
  }

  /** A line in the chat box from the page itself (examine texts, local refusals). */
  note(text, channel = 'error') {
    this.state.log.push({ channel, text, at: this.now() });
    this.notify(['log']);
  }

  /** Effects (hit splats, XP drops, chat above heads) past their time: call once per frame. */
  expire() {
    expireEffects(this.state, this.now());
  }

  /** @private */
  stepWalker() {
    const self = this.selfEntity;
    if (!self || !this.walker.pending) return;
    const walking = this.path.tiles.length > 0 || this.path.pending !== undefined;
    this.follow(this.walker.check({ x: self.x, z: self.z }, walking, (kind, id) => this.store.get(kind, id)));
  }

  /** @private */
  follow(step) {
    if (!step) return;
    if ('refusal' in step) return this.note(step.refusal);
    if (step.type === 'player:move') this.path.requested(step.data.x, step.data.z);
    if (!this.connection.send(step.type, step.data)) this.note('Not connected: try again in a moment.');
  }

  /** Stops listening to the connection (the page made a new session). */
  dispose() {
    for (const off of this.unsubscribe) off();
    this.listeners.clear();
  }
}
