/**
 * The built-in executor's kill, bank_inventory and train_skill goals against the live world: each goal is set over
 * REST and carried out through the room's own handlers on the character's connection (player:move, player:action
 * attack / gather, inventory:use, bank:depositAll / bank:deposit), which the character's socket hears; the results
 * are checked in SQL (npc_kills, inventory and bank rows, skill levels) with item totals conserved.
 */
import assert from 'node:assert/strict';
import { currentActivity as activityOf, setSkillsRng } from '../../rooms/world/features/skills/activity.ts';
import { worldOf } from '../../rooms/world/running-world.ts';
import { addToBank, emptyBank } from '../../src/game/bank.ts';
import { xpForLevel } from '../../src/game/skills.ts';
import { ledger, rowsOf, seed, stack, type Seed } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import { call, eventually, registerAgent } from './support.ts';

/** 99 attack and strength: every landed blow kills a chicken (3 hitpoints). */
const XP_99 = 13_034_431;

describe('Agent goals: kill, bank_inventory, train_skill in the world @db', function () {
  this.timeout(150_000);
  let server: TestServer;
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer();
  });

  after(async () => {
    setSkillsRng(Math.random);
    await Promise.all(sockets.filter((s) => s.socket.readyState === s.socket.OPEN).map(async (socket) => {
      socket.send('world:leave');
      await socket.waitFor('world:left').catch(() => undefined);
      socket.close();
    }));
    await server?.close();
  });

  /** A character placed at `at` with the items, the SQL changes applied, in the world over /ws, with an agent. */
  async function agentAt(at: { x: number; z: number }, items: Seed, sql: Array<[string, unknown[]]> = []) {
    const account = await anonymousAccount(server);
    const { id: characterId } = await createCharacterRow(server, account.accountId, at);
    await seed(server.context.db, characterId, items);
    for (const [statement, params] of sql) await server.context.db.em.fork().execute(statement, [...params, characterId]);
    const socket = await jsonPlayer(server, account, characterId);
    sockets.push(socket);
    const { agentId } = await registerAgent(server, account.token, characterId);
    return { account, characterId, socket, agentId };
  }

  async function endOf(agentId: string, token: string, goalId: string, timeoutMs: number) {
    return eventually(async () => {
      const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, token);
      return [state.body.goal, ...state.body.recentGoals].find((g) => g?.id === goalId && g.endedAt) ?? undefined;
    }, timeoutMs, 'the goal to end');
  }

  async function kills(characterId: string): Promise<Array<[string, number]>> {
    const rows = await server.context.db.em.fork().execute<Array<{ npc_id: string; kill_count: number }>>(
      'select npc_id, kill_count from npc_kills where character_id = ? order by npc_id', [characterId]);
    return rows.map((r) => [r.npc_id, Number(r.kill_count)]);
  }

  it('a kill goal of 1 eats when low, attacks the nearest chicken and completes with the kill recorded in SQL', async () => {
    // Every attack lands (0 < hit chance) for its maximum damage (0.99 × (max + 1)).
    let n = 0;
    setSkillsRng(() => (n++ % 2 === 0 ? 0 : 0.99));
    try {
      const { account, characterId, socket, agentId } = await agentAt({ x: 93, z: 64 }, { inventory: [stack('bread')], health: 40 }, [
        ['update characters set attack_level = 99, attack_xp_tenths = ?, strength_level = 99, strength_xp_tenths = ? where id = ?', [XP_99 * 10, XP_99 * 10]],
        // Earlier kills are not counted toward the goal.
        ["insert into npc_kills (character_id, npc_id, kill_count, last_kill_at) values (?, 'chicken', 5, now())", []],
      ]);
      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { type: 'kill', npcId: 'chicken', count: 1 });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual([set.body.goal.type, set.body.goal.status, set.body.goal.progress.unit], ['kill', 'active', 'kills']);

      // At 40 of 100 health it eats the bread through inventory:use first.
      const ate = await socket.waitFor('inventory:used', (d) => d.effect === 'eaten', 10_000);
      assert.equal(ate.data.itemId, 'bread');
      const died = await socket.waitFor('npc:died', (d) => d.killerId === characterId, 30_000);
      assert.equal(died.data.npcId, 'chicken');

      const done = await endOf(agentId, account.token, set.body.goal.id, 20_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual(done.progress, { current: 1, target: 1, unit: 'kills', percent: 100 });
      assert.deepEqual(await kills(characterId), [['chicken', 6]]);
      const rows = await rowsOf(server.context.db, characterId);
      assert.equal(rows.inventory.some((r) => r.item_id === 'bread'), false, 'the bread was eaten');
    } finally {
      setSkillsRng(Math.random);
    }
  });

  it('a kill goal fails with the reason when the character dies', async () => {
    let n = 0;
    setSkillsRng(() => (n++ % 2 === 0 ? 0 : 0.99));
    try {
      // 10 health (1 hitpoint), no food: the first goblin blow (max 2) kills.
      const { account, characterId, socket, agentId } = await agentAt({ x: 57, z: 46 }, { health: 10 });
      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { type: 'kill', npcId: 'goblin', count: 3 });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      await socket.waitFor('player:died', () => true, 30_000);
      const done = await endOf(agentId, account.token, set.body.goal.id, 10_000);
      assert.deepEqual([done.status, done.detail], ['failed', 'the character died']);
      assert.deepEqual(await kills(characterId), []);
    } finally {
      setSkillsRng(Math.random);
    }
  });

  it('a bank_inventory goal walks to the bank and deposits everything; item totals are conserved', async () => {
    const bank = addToBank(emptyBank(), [{ itemId: 'logs', quantity: 10 }]);
    assert.ok(bank.ok);
    const { account, characterId, socket, agentId } = await agentAt({ x: 100, z: 98 }, {
      inventory: [stack('logs'), stack('logs'), stack('feather', 20), stack('bronze_hatchet'), null, stack('logs')],
      equipment: { weapon: stack('bronze_sword') },
      bank: bank.value,
    });
    const before = ledger(await rowsOf(server.context.db, characterId));
    const menu = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
    const offered = menu.body.availableGoals.find((g: { id: string }) => g.id === 'bank_inventory');
    assert.deepEqual([offered.available, offered.unavailableCode], [true, null]);

    const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { goalId: 'bank_inventory' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    // The bank's own handler answered the character's connection.
    const state = await socket.waitFor('bank:state', () => true, 30_000);
    assert.ok(state.data.tabs[0].items.some((i: { itemId: string; quantity: number }) => i.itemId === 'logs' && i.quantity === 13));
    const done = await endOf(agentId, account.token, set.body.goal.id, 10_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.progress.percent, 100);

    const rows = await rowsOf(server.context.db, characterId);
    assert.deepEqual(rows.inventory, [], 'the inventory is empty');
    assert.deepEqual(rows.bank.map((r) => [r.item_id, r.quantity]).sort(), [['bronze_hatchet', 1], ['feather', 20], ['logs', 13]]);
    assert.deepEqual(rows.equipment.map((r) => r.item_id), ['bronze_sword'], 'worn items stay worn');
    assert.deepEqual(ledger(rows), before, 'nothing lost or duplicated');
    const world = worldOf(server.context)!;
    assert.deepEqual(world.player(characterId)!.containers.inventory.filter(Boolean), [], 'the world holds the committed inventory');
  });

  it('a train_skill goal from availableGoals gathers, banks a full inventory keeping the hatchet, comes back and reaches the level', async () => {
    // Woodcutting always succeeds; 40 xp + one log (25) is still level 1, the second log makes level 2 (83 xp).
    setSkillsRng(() => 0);
    try {
      const fillers = Array.from({ length: 26 }, () => stack('bones'));
      const { account, characterId, socket, agentId } = await agentAt({ x: 74, z: 101 }, { inventory: [stack('bronze_hatchet'), ...fillers] }, [
        ['update characters set woodcutting_xp_tenths = ? where id = ?', [400]],
      ]);
      const before = ledger(await rowsOf(server.context.db, characterId));
      const menu = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
      const offered = menu.body.availableGoals.find((g: { type: string; spec: { skill: string } }) => g.type === 'train_skill' && g.spec.skill === 'woodcutting');
      assert.deepEqual([offered.id, offered.available, offered.spec.targetLevel], ['train_skill:woodcutting:2', true, 2]);

      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { goalId: offered.id });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      await socket.waitFor('gather:success', () => true, 20_000);
      // The one free slot is filled: a bank trip deposits the bones and the log, not the hatchet.
      await socket.waitFor('bank:state', () => true, 40_000);
      const midway = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
      assert.deepEqual([midway.body.goal.progress.unit, midway.body.goal.progress.level, midway.body.goal.progress.targetLevel], ['xp', 1, 2]);
      assert.equal(midway.body.goal.progress.current, 65);
      assert.equal(midway.body.goal.progress.target, xpForLevel(2));
      const levelUp = await socket.waitFor('skill:levelUp', (d) => d.skill === 'woodcutting', 60_000);
      assert.equal(levelUp.data.level, 2);
      const done = await endOf(agentId, account.token, set.body.goal.id, 10_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual([done.progress.level, done.progress.percent], [2, 100]);

      const rows = await rowsOf(server.context.db, characterId);
      assert.deepEqual(rows.bank.map((r) => [r.item_id, r.quantity]).sort(), [['bones', 26], ['logs', 1]]);
      assert.deepEqual(rows.inventory.map((r) => r.item_id).sort(), ['bronze_hatchet', 'logs']);
      // Two logs came from the trees (a source); everything else is where it was or in the bank.
      const after = ledger(rows);
      assert.equal(after.get('logs'), 2);
      after.delete('logs');
      assert.deepEqual(after, before);
      const [skill] = await server.context.db.em.fork().execute<Array<{ woodcutting_level: number }>>('select woodcutting_level from characters where id = ?', [characterId]);
      assert.equal(Number(skill!.woodcutting_level), 2);
    } finally {
      setSkillsRng(Math.random);
    }
  });

  it('stop ends the gathering activity as well as the path; resume lets the executor pick training by itself', async () => {
    // Gathering never succeeds: the character keeps chopping until stopped.
    setSkillsRng(() => 0.99);
    try {
      const { account, characterId, socket, agentId } = await agentAt({ x: 73, z: 100 }, { inventory: [stack('bronze_hatchet')] });
      const world = worldOf(server.context)!;
      const player = world.player(characterId)!;
      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { type: 'train_skill', skill: 'woodcutting', targetLevel: 5 });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      await eventually(async () => (activityOf(player)?.kind === 'gather' ? true : undefined), 10_000, 'gathering');

      const stop = await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, account.token);
      assert.deepEqual([stop.status, stop.body.goalsPaused, stop.body.recentGoals[0].status], [200, true, 'stopped']);
      assert.equal(activityOf(player), undefined, 'the activity ended at once');
      assert.equal(player.path.length, 0);
      assert.equal((await socket.waitFor('action:stopped', (d) => d.action === 'gather')).data.reason, 'STOPPED');

      const resume = await call(server, 'POST', `/api/agents/${agentId}/goal/resume`, account.token);
      assert.equal(resume.status, 200);
      const picked = await eventually(async () => {
        const state = await call(server, 'GET', `/api/agents/${agentId}/goal`, account.token);
        return state.body.goal?.source === 'auto' ? state.body.goal : undefined;
      }, 8_000, 'an automatic goal');
      assert.deepEqual([picked.type, picked.spec.skill, picked.spec.targetLevel], ['train_skill', 'woodcutting', 2]);
      await eventually(async () => (activityOf(player)?.kind === 'gather' ? true : undefined), 10_000, 'gathering again');
      await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, account.token);
    } finally {
      setSkillsRng(Math.random);
    }
  });
});
