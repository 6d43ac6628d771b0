import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Character, PlayerSession } from '../../src/db/entities/index.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('a shutdown while a dropped player\'s seat is held @db', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-held-seat-'));
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'held-seat-test-secret', SAVE_INTERVAL: '600' });

  // The shutdown gives the held seat up just before the world closes; the world's closing released its lease first,
  // and the leaving player's save, fenced by that lease, was refused ("could not save the leaving player").
  it('saves the player and ends its session before the world closes', async () => {
    server = await startTestServer(env());
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 110, z: 96 });
    const player = await jsonPlayer(server, account, character.id);
    player.send('player:move', { x: 110, z: 99 });
    await player.waitFor('world:update', (d) => d.changed.some((e: { id: string; z: number }) => e.id === character.id && e.z === 99), 5_000);
    player.close();
    await player.closed;
    await sleep(300);
    await server.close();
    server = await startTestServer(env());
    const em = server.context.db.em.fork();
    const row = await em.findOneOrFail(Character, character.id);
    assert.deepEqual([row.positionX, row.positionZ], [110, 99]);
    const sessions = await em.find(PlayerSession, { characterId: character.id });
    assert.equal(sessions.length, 1);
    assert.ok(sessions[0].endedAt instanceof Date, 'the session was ended');
    assert.equal(sessions[0].reason, 'disconnected');
  });
});
