import assert from 'node:assert/strict';
import { anonymousAccount, createCharacterRow, jsonPlayer } from './helpers/players.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const METRICS_TOKEN = 'scraper-token-7f3a';

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' ') || l.startsWith(series + '{') && l.includes('} '));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics @db', function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ METRICS_TOKEN });
  });
  after(() => server?.close());

  it('is refused without a token and for a player token', async () => {
    assert.equal((await fetch(`${server.baseUrl}/metrics`)).status, 401);
    const player = await anonymousAccount(server);
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${player.token}` } });
    assert.equal(response.status, 403);
    assert.ok(!(await response.text()).includes('game_players_online'));
  });

  it('exposes the game series with real values under load', async () => {
    const account = await anonymousAccount(server);
    const client = await jsonPlayer(server, account, (await createCharacterRow(server, account.accountId, { x: 130, z: 120 })).id);
    client.send('player:move', { x: 132, z: 120 });
    await client.next('player:path');
    client.send('player:bogus', {});
    await client.next('error');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    assert.equal(sample(text, 'game_players_online'), 1);
    assert.equal(sample(text, 'game_rooms'), 1);
    assert.ok((sample(text, 'game_messages_in_total{event="player:move"}') ?? 0) >= 1);
    assert.ok((sample(text, 'game_messages_in_total{event="unknown"}') ?? 0) >= 1, 'unknown events share one label');
    assert.ok(!text.includes('player:bogus'));
    assert.ok((sample(text, 'game_tick_duration_seconds_count') ?? 0) >= 1);
    assert.ok(sample(text, 'nodejs_eventloop_lag_p99_seconds') !== undefined);
    for (const series of ['game_trades_completed_total', 'game_db_transaction_seconds', 'game_rate_limit_rejections_total']) {
      assert.ok(text.includes(`# TYPE ${series}`), series);
    }
    client.close();
  });
});
