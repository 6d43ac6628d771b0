/**
 * Quest progress, quest points and the rewards across restarts: a clean shutdown without logging out, and kill -9
 * while a completion is committing (the stage, the hand-in, the reward items, experience and quest points are all
 * there or none is).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenService } from '../../src/auth/tokens.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Character, User } from '../../src/db/entities/index.ts';
import { ledger, request, rowsOf, seed, stack } from '../economy/support.ts';
import { uniqueName } from '../helpers/database.ts';
import { spawnServer, waitForHealth, type ServerProcess } from '../helpers/process.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { AT_TAMSIN, TAMSIN, characterColumns, expectStep, optionTexts, questPlayer, questRows, seedQuest } from './support.ts';

interface Journal {
  questPoints: number;
  quests: Array<{ questId: string; status: string; stage: number; startedAt: string | null; completedAt: string | null }>;
}

async function journalOf(client: JsonWsClient): Promise<Journal> {
  const reply = await request(client, 'quest:get', {}, 'quest:state');
  if (!reply.ok) throw new Error(`quest:get was refused: ${reply.code}`);
  return reply.event.data as Journal;
}

async function enter(wsUrl: string, token: string, characterId: string): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(wsUrl);
  client.send('authenticate', { token, characterId });
  await client.waitFor('world:joined', () => true, 15_000);
  return client;
}

describe('quest progress across a restart @db', function () {
  this.timeout(90_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => { dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-quests-')); });
  after(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'quest-persistence-secret', ADMIN_CODE: 'restart code', WS_MESSAGES_PER_SECOND: '1000' });

  it('keeps stages, times, quest points and rewards through a shutdown and a restart', async () => {
    server = await startTestServer(env());
    const a = await questPlayer(server, AT_TAMSIN);
    const b = await questPlayer(server, AT_TAMSIN);

    // A finishes The Lost Locket; B only accepts it.
    for (const p of [a, b]) {
      await expectStep(p.client, 'npc:talk', { npcId: TAMSIN });
      await expectStep(p.client, 'dialogue:choose', { option: 0 });
      await expectStep(p.client, 'dialogue:choose', { option: 0 });
      await p.client.waitFor('quest:update', (d) => d.stage === 1);
    }
    assert.ok((await request(a.client, 'player:chat', { message: '/admin restart code' }, 'admin:granted')).ok);
    const stage2 = a.client.next('quest:update', (d) => d.stage === 2);
    assert.ok((await request(a.client, 'player:chat', { message: '/give tarnished_locket' }, 'admin:done')).ok);
    await stage2;
    await expectStep(a.client, 'npc:talk', { npcId: TAMSIN });
    const completed = a.client.next('quest:completed');
    await expectStep(a.client, 'dialogue:choose', { option: 2 });
    await completed;
    const journalA = await journalOf(a.client);
    const journalB = await journalOf(b.client);
    const itemsA = ledger(await rowsOf(server.context.db, a.characterId));

    // No logout: the shutdown ends the sessions; the quest log was written when it changed.
    await server.close();
    server = await startTestServer(env());

    const backA = await enter(server.wsUrl, a.account.token, a.characterId);
    const backB = await enter(server.wsUrl, b.account.token, b.characterId);
    const stateA = (await backA.waitFor('quest:state')).data as Journal;
    const stateB = (await backB.waitFor('quest:state')).data as Journal;
    assert.deepEqual(stateA, journalA);
    assert.deepEqual(stateB, journalB);
    assert.deepEqual([stateA.questPoints, stateA.quests[0].status, stateA.quests[0].stage], [1, 'completed', 3]);
    assert.ok(stateA.quests[0].completedAt);
    assert.deepEqual([stateB.questPoints, stateB.quests[0].status, stateB.quests[0].stage, stateB.quests[0].completedAt], [0, 'in-progress', 1, null]);
    const skills = (await backA.waitFor('skills:state')).data.skills as Array<{ skill: string; xp: number }>;
    assert.equal(skills.find((s) => s.skill === 'fishing')!.xp, 400);
    assert.deepEqual(ledger(await rowsOf(server.context.db, a.characterId)), itemsA);
    // Completed stays completed: the reward option is not offered again.
    assert.ok(!optionTexts(await expectStep(backA, 'npc:talk', { npcId: TAMSIN })).includes('I found your locket.'));
    backA.close();
    backB.close();
  });
});

const SECRET = 'quest-crash-test-secret';

describe(`kill -9 while a quest completes on ${databaseUnderTest()} @db`, function () {
  this.timeout(120_000);
  let dataDir: string;
  let server: ServerProcess | undefined;

  before(() => { dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-quest-crash-')); });
  after(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    PGLITE_DATA_DIR: path.join(dataDir, 'pglite'), DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: SECRET, LOG_LEVEL: 'warn',
  });
  const open = () => openDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: env().PGLITE_DATA_DIR });

  async function character(db: Database, accountId: string): Promise<string> {
    const em = db.em.fork();
    const c = em.create(Character, { id: randomUUID(), accountId, name: uniqueName('q'), positionX: AT_TAMSIN.x, positionZ: AT_TAMSIN.z, lastLoginAt: new Date() });
    await em.flush();
    await seed(db, c.id, { inventory: [stack('coins', 7), stack('tarnished_locket')] });
    await seedQuest(db, c.id, 'lost_locket', 2);
    return c.id;
  }

  it('an acknowledged completion is all there after the crash; the one in flight is all there or not at all', async () => {
    let db = await open();
    const accountId = randomUUID();
    const em = db.em.fork();
    em.create(User, { id: accountId, displayName: 'QuestCrash', roles: ['player'] });
    await em.flush();
    const acknowledged = await character(db, accountId);
    const inFlight = await character(db, accountId);
    await db.close();

    const token = new TokenService({ secret: SECRET, issuer: 'rs-game-server', audience: 'rs-game', ttlSeconds: 3600 })
      .sign({ accountId, roles: ['player'], scope: 'player' }).token;
    server = await spawnServer(env());
    await waitForHealth(server);
    const wsUrl = `ws://127.0.0.1:${server.port}`;

    const first = await enter(wsUrl, token, acknowledged);
    await expectStep(first, 'npc:talk', { npcId: TAMSIN });
    const completed = first.next('quest:completed');
    await expectStep(first, 'dialogue:choose', { option: 'returned' });
    assert.equal((await completed).data.questPoints, 1);

    const second = await enter(wsUrl, token, inFlight);
    await expectStep(second, 'npc:talk', { npcId: TAMSIN });
    second.send('dialogue:choose', { option: 'returned' });
    await sleep(Math.floor(Math.random() * 40));
    server.child.kill('SIGKILL');
    assert.equal((await server.exited).signal, 'SIGKILL');

    // Restart on the same database: the players come back with what it holds.
    server = await spawnServer(env());
    await waitForHealth(server);
    const back = await enter(`ws://127.0.0.1:${server.port}`, token, acknowledged);
    const state = (await back.waitFor('quest:state')).data as Journal;
    assert.deepEqual([state.questPoints, state.quests[0].status], [1, 'completed']);
    back.close();
    server.child.kill('SIGTERM');
    assert.equal((await server.exited).code, 0, server.output());

    db = await open();
    try {
      const done = { stage: 3, points: 1, fishing: 400, cooking: 200, items: [['coins', 257], ['fishing_bait', 50]] };
      const untouched = { stage: 2, points: 0, fishing: 0, cooking: 0, items: [['coins', 7], ['tarnished_locket', 1]] };
      const outcome = async (id: string) => {
        const [row] = await questRows(db, id);
        const columns = await characterColumns(db, id, ['quest_points', 'fishing_xp_tenths', 'cooking_xp_tenths']);
        const rows = await rowsOf(db, id);
        assert.equal(row.stage === 3, row.completed_at !== null, 'completed_at is set exactly when the quest is completed');
        return { stage: row.stage, points: columns.quest_points, fishing: columns.fishing_xp_tenths / 10, cooking: columns.cooking_xp_tenths / 10, items: [...ledger(rows)] };
      };
      assert.deepEqual(await outcome(acknowledged), done, 'the acknowledged completion survived entirely');
      const flight = await outcome(inFlight);
      assert.ok(
        JSON.stringify(flight) === JSON.stringify(done) || JSON.stringify(flight) === JSON.stringify(untouched),
        `the completion in flight is all or nothing: ${JSON.stringify(flight)}`,
      );
    } finally {
      await db.close();
    }
  });
});
