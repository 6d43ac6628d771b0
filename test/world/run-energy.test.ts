/**
 * Run energy over a real socket (issue #38 item 4; docs/game-rules.md "Run energy", protocol.md `player:run`):
 * shown in `player:sync` and `player:energy`, drained while running, restored while standing (faster with agility),
 * running switched off at 0 with the rest of the path walked, the toggle refused without energy, kept across a
 * leave, and an agent's walk that runs only with energy to spare (from 30 %).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastSync, refusal, worldRoomOf } from '../economy/support.ts';
import { jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';
import { playerWith } from '../skills/support.ts';
import { call, registerAgent } from '../api/support.ts';

/** Row z = 91 is free from x = 70 to 93. */
const WEST = { x: 70, z: 91 };
const EAST = { x: 90, z: 91 };

/** The player's run energy in hundredths of a percent, as the room holds it. */
function energyOf(client: JsonWsClient, characterId: string): number {
  return worldRoomOf(client).player(characterId)!.runEnergy;
}

async function arrived(client: JsonWsClient, at: { x: number; z: number }, characterId: string): Promise<void> {
  const room = worldRoomOf(client);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const player = room.player(characterId)!;
    if (player.x === at.x && player.z === at.z && player.path.length === 0) return;
    if (Date.now() > deadline) throw new Error(`did not arrive at ${at.x},${at.z}`);
    await sleep(100);
  }
}

describe('run energy @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => { server = await startTestServer(); });
  after(() => server?.close());

  it('starts full, drains while running, restores while standing, and is shown in player:sync and player:energy', async () => {
    const { client, characterId } = await playerWith(server, WEST, {});
    assert.equal(lastSync(client).runEnergy, 100, 'a new character starts with full run energy');
    assert.equal(lastSync(client).running, false);

    client.send('player:run', { run: true });
    assert.deepEqual((await client.waitFor('player:energy')).data, { runEnergy: 100, running: true });
    client.send('player:move', { x: EAST.x, z: EAST.z });
    const path = await client.waitFor('player:path');
    assert.equal(path.data.running, true, 'a move without "run" follows the run toggle');
    await arrived(client, EAST, characterId);
    // 20 tiles at two a tick: 10 ticks of running, 0.67 % each with nothing carried.
    const afterRun = energyOf(client, characterId);
    assert.ok(afterRun <= 10_000 - 10 * 67 + 2 * 8 && afterRun >= 10_000 - 10 * 67, `drained by 10 running ticks (${afterRun})`);
    const shown = (await client.waitFor('player:energy', (d) => d.runEnergy <= 93)).data;
    assert.deepEqual(shown, { runEnergy: 93, running: true });

    // Standing: 0.08 % a tick at agility 1 (restore 8 + floor(1 / 6)).
    await sleep(3_000);
    const rested = energyOf(client, characterId);
    assert.ok(rested > afterRun, `restored while standing (${afterRun} → ${rested})`);
    assert.equal((rested - afterRun) % 8, 0, 'in steps of 8 hundredths of a percent per tick');
    client.close();
  });

  it('switches running off at 0 (the rest of the path is walked) and refuses the toggle without energy', async () => {
    // 1.5 %: two running ticks leave 0.16 %, the third empties it.
    const { client, characterId } = await playerWith(server, WEST, { run_energy: 150 });
    assert.equal(lastSync(client).runEnergy, 1);
    client.send('player:move', { x: EAST.x, z: EAST.z, run: true });
    assert.equal((await client.waitFor('player:path')).data.running, true);
    const off = await client.waitFor('player:energy', (d) => d.running === false, 10_000);
    assert.deepEqual(off.data, { runEnergy: 0, running: false });
    const room = worldRoomOf(client);
    const player = room.player(characterId)!;
    assert.equal(player.state.running, false);
    assert.ok(player.path.length > 0, 'the rest of the path is still being walked');
    const x = player.x;
    await sleep(1_300);
    assert.ok(room.player(characterId)!.x - x <= 3, 'walking: at most one tile a tick');

    assert.equal(await refusal(client, 'player:run', { run: true }, 'player:energy'), 'NO_RUN_ENERGY');
    client.close();
  });

  it('restores faster with a higher agility level, and the energy is kept across leaving and entering', async () => {
    const { client, characterId, account } = await playerWith(server, WEST, { run_energy: 5_000, agility_level: 99, agility_xp_tenths: 130_344_310 });
    const start = energyOf(client, characterId);
    await sleep(3_000);
    const gained = energyOf(client, characterId) - start;
    assert.ok(gained > 0 && gained % 24 === 0, `restore 8 + floor(99 / 6) = 24 a tick (gained ${gained})`);
    client.send('world:leave');
    await client.waitFor('world:left');
    client.close();
    const again = await jsonPlayer(server, account, characterId);
    const sync = await again.waitFor('player:sync');
    assert.ok(sync.data.runEnergy >= Math.floor((start + gained) / 100), 'entering again starts from the energy it left with');
    assert.ok(sync.data.runEnergy < 60, `not refilled by leaving (${sync.data.runEnergy} %)`);
    again.close();
  });

  it("an agent's walk runs only with energy to spare: from 30 % it runs, below it walks (and is never refused)", async () => {
    const walkOf = async (runEnergy: number) => {
      const { client, characterId, account } = await playerWith(server, { x: 100, z: 95 }, { run_energy: runEnergy });
      const { agentId } = await registerAgent(server, account.token, characterId);
      const set = await call(server, 'POST', `/api/agents/${agentId}/goal`, account.token, { type: 'travel', areaId: 'brackenford_bank' });
      assert.equal(set.status, 200);
      const path = await client.waitFor('player:path', (d) => d.path.length > 0, 10_000);
      await call(server, 'POST', `/api/agents/${agentId}/goal/stop`, account.token);
      assert.ok(!client.events.some((e) => e.type === 'error'), 'nothing refused');
      client.close();
      return path.data.running;
    };
    assert.equal(await walkOf(10_000), true, 'full energy: the agent runs');
    assert.equal(await walkOf(1_500), false, '15 %: it walks, saving its energy (it could run, but would soon stop)');
    assert.equal(await walkOf(0), false, 'no energy: it walks');
  });
});
