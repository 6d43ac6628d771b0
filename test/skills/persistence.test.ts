import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setSkillsRng } from '../../rooms/world/features/skills/activity.ts';
import { anonymousAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { request, seededPlayer, stack } from '../economy/support.ts';

describe('skills and friendships across a restart @db', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: TestServer | undefined;

  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'game-skills-'));
    setSkillsRng(() => 0);
  });
  after(async () => {
    setSkillsRng(Math.random);
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ PGLITE_DATA_DIR: path.join(dataDir, 'db'), JWT_SECRET: 'skills-persistence-secret', ADMIN_CODE: 'restart code' });

  it('levels, experience, friendships and ignore entries survive a shutdown and a restart', async () => {
    server = await startTestServer(env());
    const accountA = await anonymousAccount(server);
    const a = await seededPlayer(server, { x: 71, z: 100 }, { inventory: [stack('bronze_hatchet')] }, accountA);
    const b = await seededPlayer(server, { x: 72, z: 100 });
    const c = await seededPlayer(server, { x: 73, z: 100 });

    assert.ok((await request(a.client, 'player:action', { action: 'gather', targetId: 'res-0' }, 'gather:success')).ok);
    await a.client.waitFor('skill:xp', (d) => d.skill === 'woodcutting');
    a.client.send('player:chat', { message: '/admin restart code' });
    await a.client.waitFor('admin:granted');
    assert.ok((await request(a.client, 'player:chat', { message: '/setlevel mining 30' }, 'admin:done')).ok);
    assert.ok((await request(a.client, 'friend:request', { characterId: b.characterId }, 'friend:requestSent')).ok);
    assert.ok((await request(b.client, 'friend:accept', { characterId: a.characterId }, 'friend:added')).ok);
    assert.ok((await request(a.client, 'friend:request', { characterId: c.characterId }, 'friend:requestSent')).ok);
    assert.ok((await request(a.client, 'ignore:add', { characterId: c.characterId }, 'ignore:added')).ok);
    assert.ok((await request(b.client, 'friend:request', { characterId: c.characterId }, 'friend:requestSent')).ok);

    // No logout: the shutdown itself saves what the players hold in memory.
    await server.close();
    server = await startTestServer(env());

    const back = await JsonWsClient.connect(server.wsUrl);
    back.send('authenticate', { token: accountA.token, characterId: a.characterId });
    const skills = (await back.waitFor('skills:state')).data.skills as Array<{ skill: string; level: number; xp: number }>;
    const bySkill = new Map(skills.map((s) => [s.skill, s]));
    assert.deepEqual(bySkill.get('woodcutting'), { skill: 'woodcutting', level: 1, xp: 25 });
    assert.deepEqual(bySkill.get('mining'), { skill: 'mining', level: 30, xp: 13363 });
    assert.deepEqual(bySkill.get('constitution'), { skill: 'constitution', level: 10, xp: 1154 });
    const social = (await back.waitFor('social:state')).data;
    assert.deepEqual(social.friends.map((f: { characterId: string }) => f.characterId), [b.characterId]);
    assert.deepEqual(social.ignores.map((f: { characterId: string }) => f.characterId), [c.characterId]);
    assert.deepEqual(social.outgoing, [], 'ignoring C withdrew the request to C');
    const pending = await server.context.db.em.fork().execute('select id from friend_requests where from_character_id = ? and to_character_id = ?', [b.characterId, c.characterId]);
    assert.equal(pending.length, 1, 'pending requests persist');
    back.close();
  });
});
