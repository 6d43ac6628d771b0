/**
 * world:update over real sockets in both encodings (docs/protocol.md): a readable change carries only the fields
 * that changed, a compact one a move code per step, and a client applying either ends where the walker is.
 */
import assert from 'node:assert/strict';
import { changesOfSet, decodeMove, movesOf } from '../../rooms/world/update-frames.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, visibleEntities, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';

describe('world:update encodings over /ws', () => {
  let server: TestServer;
  let account: TestAccount;

  before(async () => {
    server = await startTestServer();
    account = await anonymousAccount(server);
  });
  after(() => server?.close());

  /** A compact observer's view of one entity, from the frames it received (handles, move codes, changes). */
  function compactView(client: JsonWsClient, id: string): Record<string, unknown> | undefined {
    // What the client was shown, by handle, kept after removal: a re-entry may omit the fixed fields.
    const byHandle = new Map<number, Record<string, unknown>>();
    const gone = new Set<number>();
    for (const event of client.events) {
      if (event.type !== 'world:update') continue;
      const d = event.data;
      for (const e of d.added ?? []) byHandle.set(e.n, { ...byHandle.get(e.n), ...e });
      for (const code of movesOf(d.moved ?? '')) {
        const { handle, dx, dz } = decodeMove(code);
        const e = byHandle.get(handle)!;
        e.x = (e.x as number) + dx;
        e.z = (e.z as number) + dz;
      }
      for (const { n, ...fields } of changesOfSet(d.set ?? [])) Object.assign(byHandle.get(n)!, fields);
      for (const n of d.removed ?? []) gone.add(n);
      for (const e of d.added ?? []) gone.delete(e.n);
    }
    return [...byHandle].find(([n, e]) => e.id === id && !gone.has(n))?.[1];
  }

  it('sends readable deltas by default and compact frames on request; both end at the walker\'s tile', async () => {
    const walkerRow = await createCharacterRow(server, account.accountId, { x: 100, z: 100 });
    const readableRow = await createCharacterRow(server, account.accountId, { x: 102, z: 100 });
    const compactRow = await createCharacterRow(server, account.accountId, { x: 100, z: 102 });
    const walker = await jsonPlayer(server, account, walkerRow.id);
    const readable = await jsonPlayer(server, account, readableRow.id);
    const compact = await JsonWsClient.connect(server.wsUrl);
    compact.send('authenticate', { token: account.token, characterId: compactRow.id, updates: 'compact' });
    await compact.waitFor('world:joined');

    walker.send('player:move', { x: 103, z: 100 });
    await readable.waitFor('world:update', () => visibleEntities(readable).get(`player:${walkerRow.id}`)?.x === 103, 6_000);
    await compact.waitFor('world:update', () => compactView(compact, walkerRow.id)?.x === 103, 6_000);

    const walkerChanges = readable.events.filter((e) => e.type === 'world:update')
      .flatMap((e) => e.data.changed).filter((c: { id: string }) => c.id === walkerRow.id);
    assert.ok(walkerChanges.length >= 3, 'one change per step');
    for (const change of walkerChanges) {
      assert.ok(!('z' in change) && !('name' in change), `a step along x carries no z and no name: ${JSON.stringify(change)}`);
    }
    const compactFrames = compact.events.filter((e) => e.type === 'world:update').slice(1);
    assert.ok(compactFrames.some((e) => (e.data.moved ?? []).length > 0), 'the steps came as move codes');
    for (const frame of compactFrames) {
      assert.equal(frame.data.added, undefined, 'nothing new came into view');
      for (const change of frame.data.changed ?? []) assert.ok(!('x' in change), 'a step is a move code, not an x');
    }
    assert.deepEqual(
      { z: compactView(compact, walkerRow.id)!.z, name: compactView(compact, walkerRow.id)!.name },
      { z: 100, name: walkerRow.name },
    );
    for (const client of [walker, readable, compact]) client.close();
  });

  it('refuses an unknown encoding with INVALID_PAYLOAD and leaves the connection out of the world', async () => {
    const row = await createCharacterRow(server, account.accountId, { x: 100, z: 104 });
    const client = await JsonWsClient.connect(server.wsUrl);
    client.send('authenticate', { token: account.token });
    await client.waitFor('authResult');
    client.send('world:enter', { characterId: row.id, updates: 'msgpack' });
    const error = await client.waitFor('error');
    assert.deepEqual([error.data.code, error.data.event], ['INVALID_PAYLOAD', 'world:enter']);
    client.send('player:move', { x: 101, z: 104 });
    assert.equal((await client.next('error')).data.code, 'NOT_IN_WORLD');
    client.send('world:enter', { characterId: row.id, updates: 'json' });
    await client.waitFor('world:joined');
    client.close();
  });
});
