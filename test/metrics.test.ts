import assert from 'node:assert/strict';
import { anonymousAccount, createCharacterRow, jsonPlayer, sdkPlayer } from './helpers/players.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { JsonWsClient } from './helpers/ws-client.ts';
import { addItem, bothAcceptScreen1, openTrade, sendAndWait, traderPair } from './trade/support.ts';

const METRICS_TOKEN = 'scraper-token-7f3a';
/** Low enough to reach in a test, for the REST and the per-connection message limits. */
const REST_LIMIT = 40;
const WS_LIMIT = 20;
/** Authentication attempts per address: above what the other tests spend from loopback, reachable from one address. */
const AUTH_LIMIT = 30;

interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (the parts prom-client writes). */
function parse(text: string): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `unparsable line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    series.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return series;
}

/** The value of the one series with this name whose labels include `labels` (0 when absent). */
function value(all: Series[], name: string, labels: Record<string, string> = {}): number {
  const found = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} series`);
  return found[0]?.value ?? 0;
}

describe('GET /metrics @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      METRICS_TOKEN, TRUST_PROXY: '1', TRADE_REQUEST_COOLDOWN_MS: '0', RATE_LIMIT_REST_PER_MINUTE: String(REST_LIMIT), WS_MESSAGES_PER_SECOND: String(WS_LIMIT),
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT),
    });
  });
  after(() => server?.close());

  async function scrape(): Promise<Series[]> {
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    return parse(await response.text());
  }

  /** Scrapes until `check` holds (counters fed at the end of a tick or after a commit may lag the reply). */
  async function scrapeUntil(check: (all: Series[]) => boolean): Promise<Series[]> {
    for (let attempt = 0; ; attempt++) {
      const all = await scrape();
      if (check(all) || attempt === 50) return all;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('is refused without a token and for a player token', async () => {
    assert.equal((await fetch(`${server.baseUrl}/metrics`)).status, 401);
    const player = await anonymousAccount(server);
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${player.token}` } });
    assert.equal(response.status, 403);
    assert.ok(!(await response.text()).includes('game_players_online'));
  });

  it('counts messages in and out (JSON and SDK clients), players per world and tick time per world', async () => {
    const before = await scrape();
    const account = await anonymousAccount(server);
    const client = await jsonPlayer(server, account, (await createCharacterRow(server, account.accountId, { x: 130, z: 120 })).id);
    const path = client.next('player:path');
    client.send('player:move', { x: 132, z: 120 });
    await path;
    client.send('player:bogus', {});
    await client.next('error');
    const sdkAccount = await anonymousAccount(server);
    const sdk = await sdkPlayer(server, sdkAccount, (await createCharacterRow(server, sdkAccount.accountId, { x: 131, z: 121 })).id);
    sdk.onMessage('*', () => {});

    // Per-world series are labelled with the world's number (docs/worlds.md).
    const worldId = String(server.context.metrics.worlds.values().next().value!.worldNumber);
    assert.match(worldId, /^[1-9][0-9]*$/);
    const grew = (all: Series[], event: string, by: number) =>
      value(all, 'game_messages_out_total', { event }) - value(before, 'game_messages_out_total', { event }) >= by;
    const ticks = (all: Series[]) => value(all, 'game_tick_duration_seconds_count', { world: worldId });
    const after = await scrapeUntil((all) => grew(all, 'world:update', 1) && grew(all, 'player:sync', 2) && ticks(all) > ticks(before));
    assert.equal(value(after, 'game_players_online'), 2);
    assert.equal(value(after, 'game_rooms'), 1);
    assert.equal(value(after, 'game_world_players', { world: worldId }), 2);
    assert.ok(ticks(after) > ticks(before), 'tick time is observed per world');
    assert.ok(value(after, 'game_tick_duration_seconds_sum', { world: worldId }) > 0);

    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    assert.ok(delta('game_messages_in_total', { event: 'player:move' }) >= 1);
    assert.ok(delta('game_messages_in_total', { event: 'unknown' }) >= 1, 'unknown events share one label');
    // authResult and world:joined go out on the /ws connection only; player:sync to both players (SDK included).
    assert.ok(delta('game_messages_out_total', { event: 'authResult' }) >= 1);
    assert.ok(delta('game_messages_out_total', { event: 'world:joined' }) >= 1);
    assert.ok(delta('game_messages_out_total', { event: 'player:path' }) >= 1);
    assert.ok(delta('game_messages_out_total', { event: 'error' }) >= 1);
    assert.ok(delta('game_messages_out_total', { event: 'player:sync' }) >= 2, 'the SDK client\'s player:sync is counted too');
    const text = await (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    assert.ok(!text.includes('player:bogus'));
    assert.ok(after.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds'));

    await sdk.leave();
    client.close();
  });

  it('times how long each /ws frame and each SDK message waited in the inbound queue', async () => {
    const account = await anonymousAccount(server);
    const client = await jsonPlayer(server, account, (await createCharacterRow(server, account.accountId, { x: 126, z: 120 })).id);
    const sdkAccount = await anonymousAccount(server);
    const sdk = await sdkPlayer(server, sdkAccount, (await createCharacterRow(server, sdkAccount.accountId, { x: 127, z: 121 })).id);
    sdk.onMessage('*', () => {});
    const waited = (all: Series[]) => value(all, 'game_ws_inbound_wait_seconds_count');
    const before = await scrape();
    // Three frames in one burst: each waits its turn behind the ones read before it, and each is timed once.
    const path = client.next('player:path');
    client.send('player:move', { x: 127, z: 120 });
    client.send('player:bogus', {});
    client.send('player:bogus', {});
    await path;
    // The SDK client's two messages pass the same queue: the move, then a bogus event refused in its turn.
    const refused = new Promise((resolve) => sdk.onMessage('error', resolve));
    sdk.send('player:move', { x: 128, z: 121 });
    sdk.send('player:bogus', {});
    await new Promise((resolve) => sdk.onMessage('player:path', resolve));
    await refused;
    const after = await scrapeUntil((all) => waited(all) - waited(before) >= 5);
    assert.equal(waited(after) - waited(before), 5, 'the three /ws frames and the two SDK messages');
    assert.ok(value(after, 'game_ws_inbound_wait_seconds_sum') > value(before, 'game_ws_inbound_wait_seconds_sum'));
    await sdk.leave();
    client.close();
  });

  it('times each tick phase and the tick lateness, and measures the world:update bytes per JSON player', async () => {
    const before = await scrape();
    const account = await anonymousAccount(server);
    const client = await jsonPlayer(server, account, (await createCharacterRow(server, account.accountId, { x: 128, z: 118 })).id);
    const path = client.next('player:path');
    client.send('player:move', { x: 131, z: 118 });
    await path;
    const grown = (all: Series[], name: string, labels: Record<string, string> = {}) => value(all, name, labels) - value(before, name, labels);
    const after = await scrapeUntil((all) => grown(all, 'game_tick_bytes_per_player_count') >= 3 && grown(all, 'game_tick_bytes_per_player_sum') > 0);
    for (const phase of ['work', 'interest', 'encode', 'send', 'patch']) {
      assert.ok(grown(after, 'game_tick_phase_seconds_count', { phase }) >= 3, `${phase} is observed every tick`);
    }
    for (const phase of ['work', 'interest', 'encode', 'send']) {
      assert.ok(grown(after, 'game_tick_phase_seconds_sum', { phase }) > 0, `${phase} takes some time`);
    }
    assert.ok(grown(after, 'game_tick_lateness_seconds_count') >= 3);
    const bytes = grown(after, 'game_tick_bytes_per_player_sum');
    // The walk and the world around the player arrive as world:update frames: more than an empty frame's bytes.
    assert.ok(bytes > 100, `world:update bytes per player: ${bytes}`);
    client.close();
  });

  it('counts completed and cancelled trades, and times their item transactions; an open trade is a room', async () => {
    const before = await scrape();
    const rooms = value(before, 'game_rooms');
    assert.equal(rooms, 1, 'the world');
    const [a, b] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 100 }], []);
    const tradeId = await openTrade(a, b);
    await addItem(tradeId, a, b, 0, 40);
    await bothAcceptScreen1(tradeId, a, b);
    const completed = Promise.all([a.ws.next('tradeCompleted'), b.ws.next('tradeCompleted')]);
    a.ws.send('tradeAccept', { tradeId });
    await b.ws.next('tradeUpdated', (d) => d.screen === 'confirm' && d.theirOffer.accepted);
    b.ws.send('tradeAccept', { tradeId });
    await completed;

    const second = await openTrade(a, b);
    const open = await scrapeUntil((all) => value(all, 'game_rooms') === rooms + 1);
    assert.equal(value(open, 'game_rooms'), rooms + 1, 'the open trade\'s room is counted');
    const cancelled = b.ws.next('tradeCancelled', (d) => d.tradeId === second);
    a.ws.send('tradeCancel', { tradeId: second });
    await cancelled;
    const closed = await scrapeUntil((all) => value(all, 'game_rooms') === rooms);
    assert.equal(value(closed, 'game_rooms'), rooms, 'the cancelled trade\'s room is gone');

    // A request declined never becomes a trade; it is counted with its reason too.
    const incoming = b.ws.next('tradeIncoming');
    a.ws.send('tradeRequest', { targetPlayerId: b.id });
    const request = (await incoming).data;
    const declined = a.ws.next('tradeCancelled', (d) => d.tradeId === request.tradeId);
    b.ws.send('tradeRequestRespond', { tradeId: request.tradeId, accept: false });
    await declined;

    const after = await scrapeUntil((all) => value(all, 'game_trades_cancelled_total', { reason: 'declined' }) > value(before, 'game_trades_cancelled_total', { reason: 'declined' }));
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    assert.equal(delta('game_trades_completed_total'), 1);
    assert.equal(delta('game_trades_cancelled_total', { reason: 'cancelled' }), 1);
    assert.equal(delta('game_trades_cancelled_total', { reason: 'declined' }), 1);
    assert.equal(delta('game_db_transaction_seconds_count', { operation: 'trade' }), 1, 'the swap is one timed transaction');
    assert.ok(delta('game_db_transaction_seconds_sum', { operation: 'trade' }) > 0);
    a.ws.close();
    b.ws.close();
  });

  it('times world item moves as operation "items"', async () => {
    const before = await scrape();
    const [a] = await traderPair(server, [{ slot: 0, itemId: 'coins', quantity: 5 }], []);
    await sendAndWait(a, 'inventory:move', { from: 0, to: 3 }, 'player:sync');
    const after = await scrapeUntil((all) => value(all, 'game_db_transaction_seconds_count', { operation: 'items' }) > value(before, 'game_db_transaction_seconds_count', { operation: 'items' }));
    assert.ok(value(after, 'game_db_transaction_seconds_count', { operation: 'items' }) > value(before, 'game_db_transaction_seconds_count', { operation: 'items' }));
    a.ws.close();
  });

  it('counts rate-limit rejections: REST requests per address, WebSocket messages per connection, authentication attempts per address', async () => {
    const before = await scrape();
    // One address (X-Forwarded-For, TRUST_PROXY=1) goes over the REST limit.
    const statuses = await Promise.all(Array.from({ length: REST_LIMIT + 5 }, () =>
      fetch(`${server.baseUrl}/api/auth/me`, { headers: { 'X-Forwarded-For': '203.0.113.77' } }).then((r) => r.status)));
    const refused = statuses.filter((s) => s === 429).length;
    assert.equal(refused, 5);

    // One connection sends more messages in a second than WS_MESSAGES_PER_SECOND.
    const socket = await JsonWsClient.connect(server.wsUrl);
    socket.send('authenticate', { token: (await anonymousAccount(server)).token });
    await socket.waitFor('authResult');
    const sent = socket.events.length;
    const frames = WS_LIMIT + 3;
    for (let i = 0; i < frames; i++) socket.send('player:bogus', {});
    // Every frame is answered by one error: RATE_LIMITED when refused, NOT_IN_WORLD otherwise.
    await socket.waitFor('error', () => socket.events.slice(sent).filter((e) => e.type === 'error').length >= frames, 5_000, sent);
    const limited = socket.events.slice(sent).filter((e) => e.type === 'error' && e.data.code === 'RATE_LIMITED').length;
    assert.ok(limited >= 3, `${limited} messages refused`);
    const after = await scrapeUntil((all) => value(all, 'game_rate_limit_rejections_total', { limit: 'ws_messages' }) - value(before, 'game_rate_limit_rejections_total', { limit: 'ws_messages' }) >= limited);
    socket.close();

    // One address spends its authentication attempts on failed verifications (a wrong scraper token), then is refused.
    const authStatuses: number[] = [];
    for (let i = 0; i < AUTH_LIMIT + 2; i++) {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: 'Bearer wrong-token', 'X-Forwarded-For': '203.0.113.78' } });
      authStatuses.push(response.status);
    }
    assert.deepEqual(authStatuses.slice(AUTH_LIMIT - 1), [401, 429, 429], 'the attempt over the limit and the next one are refused');
    const final = await scrape();
    assert.equal(value(final, 'game_rate_limit_rejections_total', { limit: 'auth' }) - value(before, 'game_rate_limit_rejections_total', { limit: 'auth' }), 2);
    assert.equal(value(after, 'game_rate_limit_rejections_total', { limit: 'rest' }) - value(before, 'game_rate_limit_rejections_total', { limit: 'rest' }), refused);
    assert.equal(value(after, 'game_rate_limit_rejections_total', { limit: 'ws_messages' }) - value(before, 'game_rate_limit_rejections_total', { limit: 'ws_messages' }), limited);
  });

  it('times HTTP requests by method, route pattern (never the raw URL) and status', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const before = await scrape();
    const skills = await fetch(`${server.baseUrl}/api/characters/${character.id}/skills`, { headers: { Authorization: `Bearer ${account.token}` } });
    assert.equal(skills.status, 200);
    assert.equal((await fetch(`${server.baseUrl}/health`)).status, 200);
    assert.equal((await fetch(`${server.baseUrl}/no/such/path/${character.id}`)).status, 404);
    const after = await scrape();
    const count = (labels: Record<string, string>) =>
      value(after, 'game_http_request_duration_seconds_count', labels) - value(before, 'game_http_request_duration_seconds_count', labels);
    assert.equal(count({ method: 'GET', route: '/api/characters/:characterId/skills', status: '200' }), 1);
    assert.equal(count({ method: 'GET', route: '/health', status: '200' }), 1);
    assert.equal(count({ method: 'GET', route: 'unmatched', status: '404' }), 1);
    assert.ok(!after.some((s) => s.name.startsWith('game_http_request') && s.labels.route?.includes(character.id)), 'no raw URL in a label');
  });
});
