/** Helpers for world tests: anonymous identities, characters placed in the database, JSON and SDK players. */
import { randomUUID } from 'node:crypto';
import { ClientState, matchMaker } from '@colyseus/core';
import { Client as SdkClient, type Room as SdkRoom } from '@colyseus/sdk';
import { Character, User } from '../../src/db/entities/index.ts';
import { uniqueName } from './database.ts';
import { json } from './http.ts';
import type { TestServer } from './server.ts';
import { until } from './until.ts';
import { JsonWsClient } from './ws-client.ts';

export interface TestAccount {
  token: string;
  accountId: string;
}

export async function anonymousAccount(server: TestServer): Promise<TestAccount> {
  const response = await fetch(`${server.baseUrl}/api/auth/anonymous`, { method: 'POST' });
  if (response.status !== 201) throw new Error(`anonymous login failed: ${response.status} ${await response.text()}`);
  const body = await json(response);
  return { token: body.token, accountId: body.accountId };
}

/** Creates a character directly in the database, optionally already placed at a tile (as if it had played). */
export async function createCharacterRow(server: TestServer, accountId: string, at?: { x: number; z: number }): Promise<Character> {
  const em = server.context.db.em.fork();
  const character = em.create(Character, {
    id: randomUUID(), accountId, name: uniqueName('t'),
    ...(at ? { positionX: at.x, positionZ: at.z, lastLoginAt: new Date() } : {}),
  });
  await em.flush();
  return character;
}

/** A /ws player that authenticated and entered the world with the character. */
export async function jsonPlayer(server: TestServer, account: TestAccount, characterId: string): Promise<JsonWsClient> {
  const client = await JsonWsClient.connect(server.wsUrl);
  client.send('authenticate', { token: account.token });
  const auth = await client.waitFor('authResult');
  if (!auth.data.success) throw new Error(`authentication failed: ${JSON.stringify(auth.data)}`);
  client.send('world:enter', { characterId });
  await client.waitFor('world:joined');
  return client;
}

export async function sdkPlayer(server: TestServer, account: TestAccount, characterId: string): Promise<SdkRoom> {
  const sdk = new SdkClient(server.baseUrl, { headers: { Authorization: `Bearer ${account.token}` } });
  return sdk.join('world', { characterId });
}

/**
 * Closes an SDK room's socket without a consented leave, as a lost connection does (the SDK's own reconnection off),
 * and waits until the server (in this process) has seen it go. It first waits for the server to read the join's
 * acknowledgement, as it has for a player who was playing: a client that drops before that gets no seat held.
 */
export async function dropSdkConnection(room: SdkRoom): Promise<void> {
  const world = matchMaker.getLocalRoomById(room.roomId);
  const serverSide = () => world?.clients.find((client) => client.sessionId === room.sessionId);
  await until(() => serverSide()?.state === ClientState.JOINED, 'the server has read the join acknowledgement');
  room.reconnection.enabled = false;
  (room.connection.transport as unknown as { ws: { close(code: number): void } }).ws.close(4999);
  await until(() => serverSide() === undefined, 'the server has seen the connection drop');
}

/** Leaves the world properly on every open socket (their sessions are saved before the database closes), then closes them. */
export async function leaveWorlds(sockets: readonly JsonWsClient[]): Promise<void> {
  await Promise.all(sockets.filter((s) => s.socket.readyState === s.socket.OPEN).map(async (socket) => {
    socket.send('world:leave');
    await socket.waitFor('world:left').catch(() => undefined);
    socket.close();
  }));
}

/** The entities a JSON client currently knows, from the world:update stream it received. */
export function visibleEntities(client: JsonWsClient): Map<string, Record<string, unknown>> {
  const known = new Map<string, Record<string, unknown>>();
  for (const event of client.events) {
    if (event.type !== 'world:update') continue;
    for (const entity of event.data.added) known.set(`${entity.kind}:${entity.id}`, { ...entity });
    // A changed entity carries only the fields that changed (docs/protocol.md).
    for (const entity of event.data.changed) Object.assign(known.get(`${entity.kind}:${entity.id}`) ?? {}, entity);
    for (const gone of event.data.removed) known.delete(`${gone.kind}:${gone.id}`);
  }
  return known;
}

/**
 * A permanent account stored with these roles and a server token carrying them: the auth guards check the stored
 * roles too, so a token signed for an account that does not exist (or lacks the role) is refused.
 */
export async function accountWithRoles(server: Pick<TestServer, 'context'>, roles: string[]): Promise<TestAccount> {
  const em = server.context.db.em.fork();
  const user = em.create(User, { id: randomUUID(), displayName: uniqueName('op'), roles });
  await em.flush();
  const token = server.context.auth.tokens.sign({ accountId: user.id, roles, scope: 'player' }).token;
  return { token, accountId: user.id };
}
