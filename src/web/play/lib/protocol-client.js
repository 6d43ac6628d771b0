// The /ws game connection, written from docs/protocol.md alone: the reference a client author can read.
// No DOM: it runs in a browser and under Node 22 (both have a global WebSocket), which is how its tests run.
//
//   const game = new GameConnection({ url: 'ws://localhost:5555/ws' });
//   game.on('player:sync', (data) => …);              // every server event by its type; '*' gets (type, data)
//   await game.authenticate();                         // anonymous mode: no token; else the server token
//   await game.enter({ createCharacter: { name: 'Ava' } });   // or { characterId }, with world: 2 for a world
//   game.send('player:move', { x: 101, z: 100 });
//
// Frames are text, one JSON object each: {"type": "<event>", "data": {…}} both ways. A refusal is an `error` event
// (a `tradeError` for the six trade events) naming the refused event in `data.event`; it changes nothing.
// A dropped connection keeps the player's seat for 20 s: this client reconnects on its own (a new socket,
// `authenticate` with the same token, `world:enter {reconnectionToken}`) and reports each step as a `connection`
// event, so a page can say "reconnecting…".

/** Close codes of docs/protocol.md, "Close codes (/ws)". */
export const CloseCode = Object.freeze({
  NORMAL: 1000,
  BINARY_FRAME: 1003,
  FLOODING: 1008,
  TOO_LARGE: 1009,
  ROOM_ERROR: 1011,
  RESTART: 1012,
  AUTH_FAILED: 4001,
  /**
   * Not the server's: what `drop()` closes with. The server reads any close without `world:leave` as a dropped
   * connection (it holds the seat); this private-use code only says, in logs, that the client chose it.
   */
  DROPPED_BY_CLIENT: 4100,
});

/** How long the server holds a dropped player's seat (protocol.md: "within 20 s of a dropped connection"). */
export const RECONNECT_GRACE_MS = 20_000;

/** Trade events are refused with `tradeError`, everything else with `error` (protocol.md, trading.md). */
export const TRADE_EVENTS = new Set(['tradeRequest', 'tradeRequestRespond', 'tradeAddItem', 'tradeRemoveItem', 'tradeAccept', 'tradeCancel']);

/** A refusal from the server: `code` is stable (errors.md), `message` readable, `data` the whole event. */
export class Refusal extends Error {
  constructor(data, fallback = 'refused') {
    super(data?.message ?? data?.code ?? fallback);
    this.name = 'Refusal';
    this.code = data?.code ?? 'UNKNOWN';
    this.data = data ?? {};
  }
}

/**
 * @typedef {{ characterId?: string, createCharacter?: { name: string, templateId?: string }, world?: number, updates?: 'json' | 'compact' }} EntryOptions
 * @typedef {{ roomId: string, world: number, sessionId: string, reconnectionToken: string }} Joined
 * @typedef {'idle' | 'connecting' | 'authenticated' | 'entering' | 'in-world' | 'reconnecting' | 'closed'} ConnectionState
 */

export class GameConnection {
  /**
   * @param {{ url: string, WebSocket?: any, timeoutMs?: number, retryDelaysMs?: number[], now?: () => number }} options
   *   url: the /ws address (a page on the server's own origin: `ws(s)://<host>/ws`)
   */
  constructor(options) {
    this.url = options.url;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retryDelaysMs = options.retryDelaysMs ?? [300, 1000, 2000, 3000, 4000, 5000, 5000];
    this.now = options.now ?? (() => Date.now());
    /** @type {Map<string, Set<Function>>} */
    this.listeners = new Map();
    /** @type {Set<{ match: (type: string, data: any) => 'resolve' | 'reject' | undefined, resolve: Function, reject: Function, timer: any }>} */
    this.waiters = new Set();
    this.socket = undefined;
    /** @type {ConnectionState} */
    this.state = 'idle';
    /** The server token this connection authenticates with (anonymous mode: the one `authResult` handed out). */
    this.token = undefined;
    this.accountId = undefined;
    /** @type {Joined | undefined} the last `world:joined`: its reconnectionToken takes the seat back after a drop */
    this.joined = undefined;
    /** The character in the world (from `player:sync`), to enter again when the seat is gone. */
    this.characterId = undefined;
    this.droppedAt = undefined;
    this.reconnecting = undefined;
  }

  /** Listens to a server event (or '*' for all, or 'connection' for state changes); returns the unsubscribe. */
  on(type, handler) {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Sends one event; false when the socket is not open (the event is not queued). */
  send(type, data = {}) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify({ type, data }));
    return true;
  }

  /**
   * Sends an event and waits for its answer: the first `answer` event, or the refusal naming the event.
   * @param {string} type
   * @param {object} data
   * @param {string} answer
   */
  request(type, data, answer) {
    const refusal = TRADE_EVENTS.has(type) ? 'tradeError' : 'error';
    const done = this.waitFor((t, d) => (t === answer ? 'resolve' : t === refusal && d?.event === type ? 'reject' : undefined));
    if (!this.send(type, data)) return Promise.reject(new Refusal({ code: 'NOT_CONNECTED', message: 'not connected' }));
    return done;
  }

  /** Opens the socket (resolves once open). */
  open() {
    this.closing = false;
    this.setState('connecting');
    return new Promise((resolve, reject) => {
      let socket;
      try {
        socket = new this.WebSocket(this.url);
      } catch (error) {
        reject(error);
        return;
      }
      this.socket = socket;
      socket.onopen = () => resolve(undefined);
      socket.onmessage = (message) => this.receive(message.data);
      socket.onclose = (event) => {
        if (this.socket === socket) this.closed(event.code, event.reason);
        reject(new Refusal({ code: 'CONNECTION_CLOSED', message: `connection closed (${event.code})` }));
      };
    });
  }

  /**
   * `authenticate` (protocol.md "Authentication"): with a server token, or without one in anonymous mode (a new
   * temporary identity; its token comes back in `authResult`). Opens the socket first when needed.
   * @param {string} [token]
   */
  async authenticate(token) {
    if (!this.socket || this.socket.readyState !== 1) await this.open();
    const answer = this.waitFor((type) => (type === 'authResult' ? 'resolve' : undefined));
    this.send('authenticate', token === undefined ? {} : { token });
    const result = await answer;
    if (!result.success) throw new Refusal(result.error, 'authentication failed');
    this.token = result.token ?? token;
    this.accountId = result.accountId;
    this.setState('authenticated');
    return result;
  }

  /**
   * `world:enter` (protocol.md "Entering and leaving the world"); resolves with `world:joined`.
   * @param {EntryOptions | { reconnectionToken: string }} options
   * @returns {Promise<Joined>}
   */
  async enter(options) {
    this.setState('entering');
    try {
      this.joined = await this.request('world:enter', options, 'world:joined');
    } catch (error) {
      this.setState('authenticated');
      throw error;
    }
    this.setState('in-world');
    return this.joined;
  }

  /** `world:leave`: resolves once the server saved the character (`world:left`); the socket stays open. */
  async leave() {
    await this.request('world:leave', {}, 'world:left');
    this.joined = undefined;
    this.setState('authenticated');
  }

  /** `world:hop {world}`: resolves on `world:hopped`; the new `world:joined` has replaced the old one by then. */
  hop(world) {
    return this.request('world:hop', { world }, 'world:hopped');
  }

  /** Closes on purpose: no reconnection. Send `world:leave` first to leave without holding a seat. */
  close() {
    this.closing = true;
    this.reconnecting = undefined;
    this.socket?.close(CloseCode.NORMAL);
    this.setState('closed');
  }

  /** Closes the socket as a network failure would: the server holds the seat and this client reconnects. */
  drop() {
    this.socket?.close(CloseCode.DROPPED_BY_CLIENT, 'dropped');
  }

  /** @private */
  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return; // the server only sends JSON text frames (protocol.md); anything else is ignored
    }
    if (!frame || typeof frame.type !== 'string') return;
    const { type } = frame;
    const data = frame.data ?? {};
    if (type === 'player:sync' && typeof data.id === 'string') this.characterId = data.id;
    if (type === 'world:joined') this.joined = data;
    for (const waiter of [...this.waiters]) {
      const verdict = waiter.match(type, data);
      if (verdict === undefined) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      if (verdict === 'resolve') waiter.resolve(data);
      else waiter.reject(new Refusal(data));
    }
    this.emit(type, data);
  }

  /** @private */
  emit(type, data) {
    for (const handler of this.listeners.get(type) ?? []) handler(data, type);
    for (const handler of this.listeners.get('*') ?? []) handler(data, type);
  }

  /** @private */
  waitFor(match) {
    return new Promise((resolve, reject) => {
      const waiter = {
        match, resolve, reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Refusal({ code: 'TIMEOUT', message: 'the server did not answer in time' }));
        }, this.timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** @private */
  setState(state, detail = {}) {
    this.state = state;
    this.emit('connection', { state, ...detail });
  }

  /** @private */
  closed(code, reason) {
    for (const waiter of [...this.waiters]) {
      clearTimeout(waiter.timer);
      waiter.reject(new Refusal({ code: 'CONNECTION_CLOSED', message: `connection closed (${code})` }));
    }
    this.waiters.clear();
    if (this.reconnecting) return; // a failed attempt of the reconnection loop: the loop goes on
    const wasInWorld = this.joined !== undefined && (this.state === 'in-world' || this.state === 'reconnecting');
    // 4001: the token or the session's rights ended; 1008/1009/1003: this client broke a rule. Neither is retried.
    const retry = !this.closing && wasInWorld && ![CloseCode.AUTH_FAILED, CloseCode.FLOODING, CloseCode.TOO_LARGE, CloseCode.BINARY_FRAME].includes(code);
    if (!retry) {
      if (!this.closing) this.joined = undefined;
      this.setState('closed', { code, reason });
      return;
    }
    this.droppedAt = this.now();
    this.setState('reconnecting', { code, reason });
    this.reconnecting = this.reconnect().finally(() => { this.reconnecting = undefined; });
  }

  /**
   * Takes the seat back: within the grace period with the reconnection token, after it (or when the server
   * restarted, 1012, and the token names a room that is gone) by entering again with the character.
   * @private
   */
  async reconnect() {
    for (const delay of this.retryDelaysMs) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.closing) return;
      try {
        await this.open();
        await this.authenticate(this.token);
        const withinGrace = this.now() - this.droppedAt < RECONNECT_GRACE_MS;
        if (withinGrace && this.joined) {
          try {
            await this.enter({ reconnectionToken: this.joined.reconnectionToken });
            return;
          } catch (error) {
            if (!(error instanceof Refusal) || error.code !== 'INVALID_RECONNECTION_TOKEN') throw error;
          }
        }
        await this.enter({ characterId: this.characterId });
        return;
      } catch (error) {
        if (error instanceof Refusal && ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'FORBIDDEN', 'CHARACTER_NOT_OWNED'].includes(error.code)) break;
        if (this.socket && this.socket.readyState === 1) this.socket.close(CloseCode.NORMAL);
      }
    }
    if (this.closing) return;
    this.joined = undefined;
    this.closing = true;
    this.setState('closed', { code: 0, reason: 'could not reconnect' });
  }
}
