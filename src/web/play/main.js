// The play page (docs/frontend.md): the game in a browser tab with nothing to build. It is written only against
// the documented protocol (docs/protocol.md) and REST API (docs/api.md); lib/ holds the logic (no DOM, unit
// tested under Node), ui/ the page. This module wires them: sign in, enter, play, leave, come back.

import { $ } from '../shared/dom.js';
import { GameConnection } from './lib/protocol-client.js';
import { RestClient } from './lib/rest-client.js';
import { GameSession } from './lib/session.js';
import { loadWorldData } from './lib/world-data.js';
import { GameScreen } from './ui/game-screen.js';
import { LoginScreen } from './ui/login-screen.js';

/** Where a page reload finds the seat to take back within the grace period (this tab only). */
const SEAT_KEY = 'play.seat';

const rest = new RestClient();
const wsUrl = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;

/** For people and tests looking at the page from the outside (read-only use). */
const page = { session: undefined, connection: undefined, world: undefined, screen: undefined, ready: false };
globalThis.play = page;

function rememberSeat(connection) {
  if (connection.joined && connection.characterId) {
    sessionStorage.setItem(SEAT_KEY, JSON.stringify({ reconnectionToken: connection.joined.reconnectionToken, characterId: connection.characterId, at: Date.now() }));
  }
}

async function start() {
  const world = await loadWorldData(rest);
  page.world = world;
  let login;
  const screen = new GameScreen({ world, rest, leave: () => void leave() });
  page.screen = screen;

  async function play({ token, options }) {
    const connection = new GameConnection({ url: wsUrl });
    const session = new GameSession({ connection, world, now: () => performance.timeOrigin + performance.now() });
    try {
      await connection.authenticate(token);
      await connection.enter(options);
    } catch (error) {
      session.dispose();
      connection.close();
      throw error;
    }
    page.connection = connection;
    page.session = session;
    connection.on('world:joined', () => rememberSeat(connection));
    connection.on('connection', ({ state }) => {
      if (state === 'closed' && page.connection === connection) void backToLogin('The connection closed.');
    });
    rememberSeat(connection);
    login.hide();
    screen.attach(session);
  }

  async function leave() {
    const connection = page.connection;
    sessionStorage.removeItem(SEAT_KEY);
    if (connection) {
      page.connection = undefined;
      await connection.leave().catch(() => undefined);
      connection.close();
    }
    await backToLogin('');
  }

  async function backToLogin(message) {
    page.session?.dispose();
    page.session = undefined;
    page.connection = undefined;
    screen.detach();
    login.show();
    await login.resume();
    if (message) login.error(message);
  }

  login = new LoginScreen(rest, play);
  addEventListener('pagehide', () => { if (page.connection) rememberSeat(page.connection); });

  // A reload within the grace period takes the seat back (protocol.md "Entering and leaving the world").
  const resumed = await login.resume();
  const seat = JSON.parse(sessionStorage.getItem(SEAT_KEY) ?? 'null');
  if (resumed && seat && Date.now() - seat.at < 18_000) {
    try {
      await play({ token: rest.token, options: { reconnectionToken: seat.reconnectionToken } });
    } catch {
      sessionStorage.removeItem(SEAT_KEY);
    }
  }
  page.ready = true;
}

start().catch((error) => {
  $('identity-status').textContent = `The page could not start: ${error?.message ?? error}`;
});
