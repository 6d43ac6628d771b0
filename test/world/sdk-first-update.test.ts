/**
 * Issue #35, item 1: an SDK client written from docs/worlds.md alone — `join('world', {characterId, updates})`,
 * then `room.onMessage('world:update', …)` once `join()` has resolved — must see its surroundings (the first frame,
 * which lists everything around the player) and the later changes to them. The first frame used to be written to
 * the socket before the client had finished joining, so the SDK dropped it ("onMessage() not registered") and the
 * client's world stayed empty: later changes name entities it was never shown.
 */
import assert from 'node:assert/strict';
import { Client as SdkClient } from '@colyseus/sdk';
import { anonymousAccount, createCharacterRow } from '../helpers/players.ts';
import { databaseUnderTest, startTestServer, type TestServer } from '../helpers/server.ts';

type Entity = Record<string, unknown> & { kind: string; id: string };
type Frame = { added?: Entity[]; changed?: Entity[]; removed?: Array<{ kind: string; id: string }> };

const RUNS = 5;

/** Bounded wait: polls `done` every 50 ms for at most `ms`. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return done();
}

describe(`SDK world:update clients see their first frame (${databaseUnderTest()}) @db`, function () {
  this.timeout(120_000);
  let server: TestServer;
  const warnings: string[] = [];
  const warn = console.warn;

  before(async () => {
    server = await startTestServer();
    console.warn = (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
    };
  });
  after(async () => {
    console.warn = warn;
    await server?.close();
  });

  for (let run = 1; run <= RUNS; run++) {
    it(`run ${run}: a handler registered after join() resolves gets the surroundings, then the player's own moves`, async () => {
      warnings.length = 0;
      const account = await anonymousAccount(server);
      const character = await createCharacterRow(server, account.accountId, { x: 100 + run * 3, z: 100 });
      const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
      const room = await sdk.join('world', { characterId: character.id, updates: 'json' });
      // As docs/worlds.md shows it: the handler comes after join() resolved; apply() keeps what the frames say.
      const world = new Map<string, Entity>();
      const apply = (frame: Frame) => {
        for (const entity of frame.added ?? []) world.set(`${entity.kind}:${entity.id}`, { ...entity });
        for (const change of frame.changed ?? []) {
          const known = world.get(`${change.kind}:${change.id}`);
          if (known) Object.assign(known, change);
        }
        for (const gone of frame.removed ?? []) world.delete(`${gone.kind}:${gone.id}`);
      };
      room.onMessage('world:update', (text: string) => apply(JSON.parse(text)));
      room.onMessage('*', () => {});
      try {
        const self = () => world.get(`player:${character.id}`);
        assert.ok(await waitUntil(() => self() !== undefined, 5_000),
          `the first world:update reached the handler (entities known: ${world.size}; SDK warnings: ${JSON.stringify(warnings)})`);
        assert.ok([...world.keys()].some((key) => !key.startsWith('player:')), 'the first frame lists the surroundings, not only the player');
        const startX = Number(self()!.x);
        room.send('player:move', { x: startX + 2, z: Number(self()!.z) });
        assert.ok(await waitUntil(() => Number(self()!.x) === startX + 2, 10_000),
          `the player's own move arrived as a change to the entity the first frame showed (x is ${self()!.x})`);
        assert.deepEqual(warnings.filter((w) => w.includes("'world:update'")), [], 'the SDK dropped no world:update');
      } finally {
        await room.leave();
      }
    });
  }
});
