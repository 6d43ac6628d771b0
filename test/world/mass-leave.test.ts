/**
 * Many players leaving at once keep the world's lease (rooms/world/leave-saves.ts). A shutdown gives up every held
 * seat together, and the seats of a mass drop lapse together: each leave saves (leave hooks, the session's end, the
 * claim's release), and all of them at once queued ahead of the world's lease renewal on the database pool. The
 * renewal waited for them all, the lease lapsed by PostgreSQL's clock, and the last saves were refused (seen when a
 * server shut down under 2,000 walkers), while a world still running lost its lease outright.
 *
 * Here the lease is 2 s, and a leave hook holds a database connection 150 ms per leaving player (on PGlite, the only
 * one): 30 leaves are 4.5 s of it. Every session must end with its reason, and the world keeps its lease.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { matchMaker } from '@colyseus/core';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import { listWorlds } from '../../rooms/entry/world-choice.ts';
import type { WorldApi } from '../../rooms/world/world-api.ts';

const LEAVERS = 30;

describe(`many players leaving at once (${databaseUnderTest()}) @db`, function () {
  this.timeout(90_000);
  let server: TestServer;
  const open: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ WORLD_LEASE_SECONDS: '2' });
  });
  after(async () => {
    for (const client of open) client.close();
    await server?.close();
  });

  async function playerInWorld(): Promise<{ client: JsonWsClient; characterId: string }> {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const client = await jsonPlayer(server, account, character.id);
    open.push(client);
    return { client, characterId: character.id };
  }

  it(`${LEAVERS} leaves whose saves hold the database 4.5 s in all: every session ends, the world keeps its lease`, async () => {
    const watcher = await playerInWorld();
    const leavers = [];
    for (let i = 0; i < LEAVERS; i++) leavers.push(await playerInWorld());
    const [listing] = await listWorlds();
    const room = matchMaker.getLocalRoomById(listing!.roomId) as unknown as WorldApi;
    const leaving = new Set(leavers.map((leaver) => leaver.characterId));
    const db = server.context.db;
    // A transaction held open 150 ms without holding the thread, as a slow database's round trips would (pg_sleep
    // would block the whole process on PGlite, which runs on this thread).
    room.onPlayerLeave(async (player) => {
      if (!leaving.has(player.id)) return;
      await db.em.fork().transactional(async (tx) => {
        await tx.execute('select 1');
        await sleep(150);
      });
    });
    let closedWith: number | undefined;
    void watcher.client.closed.then((event) => (closedWith = event.code));

    for (const leaver of leavers) leaver.client.send('world:leave');
    const ids = [...leaving];
    const ended = async () => {
      const [row] = await db.em.getConnection().execute<Array<{ ended: string | number }>>(
        `select count(*) as ended from player_sessions where ended_at is not null and reason = 'logout'
         and character_id in (${ids.map(() => '?').join(', ')})`, ids);
      return Number(row!.ended);
    };
    await until(async () => (await ended()) === LEAVERS || closedWith !== undefined, 'every leave to be saved', 30_000, 100)
      .catch(async (error: Error) => assert.fail(`${error.message}: ${await ended()} of ${LEAVERS} sessions ended`));
    assert.equal(closedWith, undefined, `the player who stayed was closed with ${closedWith} (4012: the world lost its lease)`);
    assert.equal(await ended(), LEAVERS, 'sessions ended with reason logout');
    const [still] = await listWorlds();
    assert.equal(still?.roomId, listing!.roomId, 'the world still holds its lease on its number');
  });
});
