import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Character, PlayerSession } from '../../src/db/entities/index.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

describe('world persistence across restarts @db', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-world-'));
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // A fixed secret so tokens stay valid across the restart.
  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'persistence-test-secret', SAVE_INTERVAL: '1' });

  it('positions survive a shutdown and a restart, and sessions are recorded with their reason', async () => {
    server = await startTestServer(env());
    const account = await anonymousAccount(server);
    const leaver = await createCharacterRow(server, account.accountId, { x: 110, z: 96 });
    const stayer = await createCharacterRow(server, account.accountId, { x: 112, z: 96 });

    const leaving = await jsonPlayer(server, account, leaver.id);
    leaving.send('player:move', { x: 110, z: 99 });
    await leaving.waitFor('world:update', (d) => d.changed.some((e: { id: string; z: number }) => e.id === leaver.id && e.z === 99), 5_000);
    leaving.send('world:leave');
    await leaving.waitFor('world:left');

    const staying = await jsonPlayer(server, account, stayer.id);
    staying.send('player:move', { x: 115, z: 96, run: true });
    await staying.waitFor('world:update', (d) => d.changed.some((e: { id: string; x: number }) => e.id === stayer.id && e.x === 115), 5_000);
    // The auto-save (every second here) writes the position while the player is still online.
    const deadline = Date.now() + 5_000;
    let savedX = NaN;
    while (Date.now() < deadline && savedX !== 115) {
      await sleep(200);
      savedX = (await server.context.db.em.fork().findOneOrFail(Character, stayer.id)).positionX;
    }
    assert.equal(savedX, 115, 'auto-save wrote the position while online');

    await server.close();
    assert.equal((await staying.closed).code, 1012, 'shutdown closes the world connection with 1012 (service restart)');
    server = await startTestServer(env());

    const em = server.context.db.em.fork();
    const rows = await em.find(Character, { id: { $in: [leaver.id, stayer.id] } });
    const byId = new Map(rows.map((c) => [c.id, c]));
    assert.deepEqual([byId.get(leaver.id)!.positionX, byId.get(leaver.id)!.positionZ], [110, 99]);
    assert.deepEqual([byId.get(stayer.id)!.positionX, byId.get(stayer.id)!.positionZ], [115, 96]);
    const sessions = await em.find(PlayerSession, { characterId: { $in: [leaver.id, stayer.id] } });
    assert.deepEqual(sessions.map((s) => [s.characterId === leaver.id ? 'leaver' : 'stayer', s.reason]).sort(), [['leaver', 'logout'], ['stayer', 'server_shutdown']]);
    assert.ok(sessions.every((s) => s.endedAt instanceof Date && s.playtimeSeconds >= 0));

    const back = await JsonWsClient.connect(server.wsUrl);
    back.send('authenticate', { token: account.token, characterId: stayer.id });
    const sync = await back.waitFor('player:sync');
    assert.deepEqual({ x: sync.data.x, z: sync.data.z }, { x: 115, z: 96 });
    back.close();
  });
});
