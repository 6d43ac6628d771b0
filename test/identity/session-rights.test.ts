/**
 * Live sessions end when their rights end (issue #17 items 1, 2, 4, 9, 10; docs/auth.md "Live sessions"): agent
 * revocation, token expiry, account deletion and role removal close the open sockets (error event with the code,
 * then close 4001) and free the character; role-less tokens cannot play; admin elevation never reaches agents and
 * does not survive a reconnection; an agent's admin-code guesses cannot lock its owner out; wrong METRICS_TOKEN
 * guesses are limited.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, User } from '../../src/db/entities/index.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer, sdkPlayer, type TestAccount } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { JsonWsClient } from '../helpers/ws-client.ts';
import { accountWithCharacter, call, eventually, registerAgent } from '../api/support.ts';

const ADMIN_CODE = 'session-rights admin code';

/** The socket's close, or a failure naming what was awaited when it stays open. */
async function closedWithin(socket: JsonWsClient, ms: number, what: string): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the socket stayed open: ${what}`)), ms);
  });
  try {
    return await Promise.race([socket.closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function errorCodes(socket: JsonWsClient): string[] {
  return socket.events.filter((e) => e.type === 'error').map((e) => e.data.code);
}

async function leave(socket: JsonWsClient): Promise<void> {
  if (socket.socket.readyState !== socket.socket.OPEN) return;
  socket.send('world:leave');
  await socket.waitFor('world:left').catch(() => undefined);
  socket.close();
}

describe('live sessions end when their rights end @db', function () {
  this.timeout(60_000);
  let server: TestServer;
  const sockets: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer({ ADMIN_CODE, RATE_LIMIT_AUTH_PER_MINUTE: '1000', SESSION_CHECK_SECONDS: '1' });
  });

  after(async () => {
    await Promise.all(sockets.map(leave));
    await server?.close();
  });

  async function enter(account: TestAccount, characterId: string): Promise<JsonWsClient> {
    const socket = await jsonPlayer(server, account, characterId);
    sockets.push(socket);
    return socket;
  }

  it('revoking an agent closes its open socket (SESSION_REVOKED, 4001) and the owner enters with the character at once', async () => {
    const owner = await accountWithCharacter(server);
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    const agent = await enter({ token: agentToken, accountId: owner.accountId }, owner.characterId);

    assert.equal((await call(server, 'DELETE', `/api/agent/${agentId}`, owner.token)).status, 200);
    const closed = await closedWithin(agent, 5_000, 'after the agent was revoked');
    assert.equal(closed.code, 4001);
    assert.ok(errorCodes(agent).includes('SESSION_REVOKED'), JSON.stringify(agent.events.slice(-3)));

    // No reconnection seat was kept for the revoked session: the owner takes the character back right away.
    const mine = await enter(owner, owner.characterId);
    assert.ok(mine.events.some((e) => e.type === 'world:joined'));
  });

  it('a revocation made elsewhere (another process, straight in the database) ends the session at the next sweep', async () => {
    const owner = await accountWithCharacter(server);
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    const agent = await enter({ token: agentToken, accountId: owner.accountId }, owner.characterId);
    await server.context.db.em.fork().nativeUpdate(Agent, { id: agentId }, { revokedAt: new Date() });
    await server.context.auth.sessions.sweep();
    assert.equal((await closedWithin(agent, 5_000, 'after the sweep')).code, 4001);
    assert.ok(errorCodes(agent).includes('SESSION_REVOKED'));
    // And the character can be deleted by its owner now (it was 409 CHARACTER_ONLINE while the agent held it).
    assert.equal((await call(server, 'DELETE', `/api/character/${owner.characterId}`, owner.token)).status, 204);
  });

  it('a session ends when its token expires; session:renew with a fresh token of the same kind keeps it going', async () => {
    const owner = await accountWithCharacter(server);
    const short = (ttlSeconds: number) => server.context.auth.tokens.sign(
      { accountId: owner.accountId, roles: ['player'], scope: 'player', characterId: owner.characterId }, { ttlSeconds }).token;

    const renewing = await enter({ token: short(8), accountId: owner.accountId }, owner.characterId);
    // A token of another kind cannot take over the session's lifetime.
    renewing.send('session:renew', { token: owner.token });
    assert.equal((await renewing.next('error')).data.code, 'INSUFFICIENT_SCOPE');
    renewing.send('session:renew', { token: short(3600) });
    await renewing.waitFor('session:renewed');
    await leave(renewing);

    const expiring = await enter({ token: short(2), accountId: owner.accountId }, owner.characterId);
    const closed = await closedWithin(expiring, 8_000, 'after its token expired');
    assert.equal(closed.code, 4001);
    assert.ok(errorCodes(expiring).includes('TOKEN_EXPIRED'), JSON.stringify(expiring.events.slice(-3)));
  });

  it('the temporary-identity clean-up ends the sessions of the accounts it deletes (ACCOUNT_NOT_FOUND)', async () => {
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId);
    const socket = await enter(account, character.id);
    await server.context.db.em.fork().nativeUpdate(User, { id: account.accountId }, { expiresAt: new Date(Date.now() - 1000) });
    assert.ok(await server.context.auth.cleanupExpiredTemporaryUsers() >= 1);
    assert.equal((await closedWithin(socket, 5_000, 'after its account was deleted')).code, 4001);
    assert.ok(errorCodes(socket).includes('ACCOUNT_NOT_FOUND'));
  });

  it('an account without the player role cannot play, and losing the role ends its live sessions (socket and SDK)', async () => {
    const id = randomUUID();
    const em = server.context.db.em.fork();
    em.create(User, { id, displayName: 'Suspended', roles: [], isTemporary: false });
    await em.flush();
    const roleless = server.context.auth.tokens.sign({ accountId: id, roles: [], scope: 'player' }).token;
    const refused = await JsonWsClient.connect(server.wsUrl);
    refused.send('authenticate', { token: roleless });
    const result = await refused.waitFor('authResult');
    assert.equal(result.data.success, false);
    assert.equal(result.data.error.code, 'INSUFFICIENT_ROLE');
    assert.equal((await closedWithin(refused, 5_000, 'after a refused authenticate')).code, 4001);
    const character = await createCharacterRow(server, id);
    await assert.rejects(sdkPlayer(server, { token: roleless, accountId: id }, character.id));

    const player = await accountWithCharacter(server);
    const socket = await enter(player, player.characterId);
    const second = await createCharacterRow(server, player.accountId);
    const sdk = await sdkPlayer(server, player, second.id);
    const sdkLeft = new Promise<number>((resolve) => sdk.onLeave((code) => resolve(code)));
    await server.context.db.em.fork().nativeUpdate(User, { id: player.accountId }, { roles: [] });
    await server.context.auth.sessions.accountChanged(player.accountId);
    assert.equal((await closedWithin(socket, 5_000, 'after the player role was removed')).code, 4001);
    assert.ok(errorCodes(socket).includes('INSUFFICIENT_ROLE'));
    assert.equal(await sdkLeft, 4401);
    await eventually(async () => (server.context.online.has(second.id) ? undefined : true), 5_000, 'the SDK player to leave the world');
  });

  it('role changes written straight into the database (npm run admin, another process, SQL) reach REST and live sessions within SESSION_CHECK_SECONDS, with no event', async () => {
    const player = await accountWithCharacter(server);
    const users = () => server.context.db.em.fork();
    await users().nativeUpdate(User, { id: player.accountId }, { roles: ['player', 'admin'] });
    const adminToken = server.context.auth.tokens.sign({ accountId: player.accountId, roles: ['player', 'admin'], scope: 'player' }).token;
    const scrape = async () => {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${adminToken}` } });
      await response.arrayBuffer();
      return response.status;
    };
    assert.equal(await scrape(), 200);
    const socket = await enter(player, player.characterId);

    // Demoted to player: the admin token loses the admin route within the role cache's age; the game goes on.
    await users().nativeUpdate(User, { id: player.accountId }, { roles: ['player'] });
    await eventually(async () => ((await scrape()) === 403 ? true : undefined), 4_000, 'the demoted admin to lose GET /metrics');
    assert.equal(socket.socket.readyState, socket.socket.OPEN);

    // Suspended (no player role): the live session ends at the next sweep.
    await users().nativeUpdate(User, { id: player.accountId }, { roles: [] });
    assert.equal((await closedWithin(socket, 4_000, 'after the player role was removed in the database')).code, 4001);
    assert.ok(errorCodes(socket).includes('INSUFFICIENT_ROLE'), JSON.stringify(socket.events.slice(-3)));
  });

  it('entering again re-checks the socket\'s token: an agent socket that left the world cannot come back once revoked, nor a socket whose token expired', async () => {
    const owner = await accountWithCharacter(server);
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    const agent = await enter({ token: agentToken, accountId: owner.accountId }, owner.characterId);
    agent.send('world:leave');
    await agent.waitFor('world:left');
    assert.equal((await call(server, 'DELETE', `/api/agent/${agentId}`, owner.token)).status, 200);
    agent.send('world:enter', { characterId: owner.characterId });
    const refused = await Promise.race([agent.waitFor('world:joined', () => true, 5_000, agent.events.length), agent.waitFor('error', (d) => d.event === 'world:enter')]);
    assert.equal(refused.type === 'error' ? refused.data.code : refused.type, 'TOKEN_INVALID');

    const short = server.context.auth.tokens.sign({ accountId: owner.accountId, roles: ['player'], scope: 'player' }, { ttlSeconds: 2 }).token;
    const socket = await JsonWsClient.connect(server.wsUrl);
    sockets.push(socket);
    socket.send('authenticate', { token: short });
    assert.equal((await socket.waitFor('authResult')).data.success, true);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    socket.send('world:enter', { characterId: owner.characterId });
    const expired = await Promise.race([socket.waitFor('world:joined'), socket.waitFor('error', (d) => d.event === 'world:enter')]);
    assert.equal(expired.type === 'error' ? expired.data.code : expired.type, 'TOKEN_EXPIRED');
    assert.ok(!server.context.online.has(owner.characterId));
  });

  it('a reconnection re-checks the resuming socket\'s token: expired, revoked or bound to another character is refused, and the seat stays for its owner', async () => {
    const owner = await accountWithCharacter(server);
    const second = await createCharacterRow(server, owner.accountId);
    const sign = (claims: { characterId?: string }, ttlSeconds: number) => server.context.auth.tokens.sign(
      { accountId: owner.accountId, roles: ['player'], scope: 'player', ...claims }, { ttlSeconds }).token;
    const authenticated = async (token: string) => {
      const socket = await JsonWsClient.connect(server.wsUrl);
      sockets.push(socket);
      socket.send('authenticate', { token });
      assert.equal((await socket.waitFor('authResult')).data.success, true);
      return socket;
    };
    const resume = async (socket: JsonWsClient, reconnectionToken: string) => {
      socket.send('world:enter', { reconnectionToken });
      const outcome = await Promise.race([socket.waitFor('world:joined'), socket.waitFor('error', (d) => d.event === 'world:enter')]);
      return outcome.type === 'world:joined' ? 'JOINED' : outcome.data.code as string;
    };

    // Sockets authenticated while their tokens were good, then left idle outside the world.
    const expiring = await authenticated(sign({}, 2));
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    const agent = await authenticated(agentToken);
    const otherCharacter = await authenticated(sign({ characterId: second.id }, 3600));

    const playing = await enter(owner, owner.characterId);
    const joined = await playing.waitFor('world:joined');
    playing.socket.terminate();
    await playing.closed;
    assert.equal((await call(server, 'DELETE', `/api/agent/${agentId}`, owner.token)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2_200));

    const seat = joined.data.reconnectionToken as string;
    assert.equal(await resume(expiring, seat), 'TOKEN_EXPIRED');
    assert.equal(await resume(agent, seat), 'TOKEN_INVALID');
    assert.equal(await resume(otherCharacter, seat), 'CHARACTER_NOT_OWNED');
    // The seat was kept for its owner.
    assert.equal(await resume(await authenticated(owner.token), seat), 'JOINED');
  });

  it('a resumed session acts for the token that resumed it: revoking that agent ends it', async () => {
    const owner = await accountWithCharacter(server);
    const { agentId, agentToken } = await registerAgent(server, owner.token, owner.characterId);
    const playing = await enter(owner, owner.characterId);
    const joined = await playing.waitFor('world:joined');
    playing.socket.terminate();
    await playing.closed;

    const agent = await JsonWsClient.connect(server.wsUrl);
    sockets.push(agent);
    agent.send('authenticate', { token: agentToken });
    await agent.waitFor('authResult');
    agent.send('world:enter', { reconnectionToken: joined.data.reconnectionToken });
    await agent.waitFor('world:joined');

    assert.equal((await call(server, 'DELETE', `/api/agent/${agentId}`, owner.token)).status, 200);
    assert.equal((await closedWithin(agent, 5_000, 'after the agent that resumed the session was revoked')).code, 4001);
    assert.ok(errorCodes(agent).includes('SESSION_REVOKED'), JSON.stringify(agent.events.slice(-3)));
  });

  it('agent messages never use the owner\'s admin elevation', async () => {
    const owner = await accountWithCharacter(server);
    const socket = await enter(owner, owner.characterId);
    socket.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    await socket.waitFor('admin:granted');
    const { agentId } = await registerAgent(server, owner.token, owner.characterId);
    // The audit lines, as the world logs them.
    const logger = server.context.logger;
    const audits: Array<Record<string, unknown>> = [];
    const info = logger.info;
    logger.info = function (this: typeof logger, ...args: unknown[]) {
      const fields = args[0] as Record<string, unknown> | undefined;
      if (fields?.audit === 'admin_command' && fields.adminCharacterId === owner.characterId) audits.push(fields);
      return (info as (...a: unknown[]) => void).apply(this, args);
    } as typeof logger.info;

    try {
      const from = socket.events.length;
      const sent = await call(server, 'POST', `/api/agents/${agentId}/message`, owner.token, { message: '/give coins 2147483647' });
      assert.equal(sent.status, 200);
      const refusal = await socket.waitFor('error', (d) => d.event === 'player:chat', 5_000, from);
      assert.equal(refusal.data.code, 'NOT_ADMIN');
      assert.ok(!socket.events.some((e) => e.type === 'admin:done'));

      // The player's own command still works: the elevation is the session's, not the agent's.
      socket.send('player:chat', { message: '/give coins 5' });
      assert.equal((await socket.waitFor('admin:done')).data.quantity, 5);
    } finally {
      logger.info = info;
    }
    // Audit lines name the real actor: the agent speaking through REST, then the player's own token.
    assert.deepEqual(audits.map((a) => [a.command, a.outcome, a.actor, a.agentId ?? null]),
      [['give', 'refused', 'agent', agentId], ['give', 'done', 'player', null]]);
    assert.equal(audits[1]!.tokenId, (JSON.parse(Buffer.from(owner.token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti);
  });

  it('an agent token\'s own socket cannot elevate, and a reconnection drops the elevation', async () => {
    const owner = await accountWithCharacter(server);
    const second = await createCharacterRow(server, owner.accountId);
    const { agentToken } = await registerAgent(server, owner.token, second.id);
    const agent = await enter({ token: agentToken, accountId: owner.accountId }, second.id);
    agent.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    assert.equal((await agent.next('error')).data.code, 'ADMIN_NOT_ALLOWED');
    await leave(agent);

    const socket = await enter(owner, owner.characterId);
    socket.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    await socket.waitFor('admin:granted');
    const joined = await socket.waitFor('world:joined');
    socket.socket.terminate();
    await socket.closed;

    // Another token of the same account, bound to its other character, may not resume the seat as admin.
    const other = await call(server, 'POST', '/api/auth/character-token', owner.token, { characterId: second.id });
    const bound = await JsonWsClient.connect(server.wsUrl);
    sockets.push(bound);
    bound.send('authenticate', { token: other.body.token });
    await bound.waitFor('authResult');
    bound.send('world:enter', { reconnectionToken: joined.data.reconnectionToken });
    const outcome = await Promise.race([bound.waitFor('world:joined'), bound.waitFor('error')]);
    assert.equal(outcome.type === 'error' ? outcome.data.code : outcome.type, 'CHARACTER_NOT_OWNED');
    // Refused (the seat stays held): the owner's own token resumes it instead.
    const resumed = await JsonWsClient.connect(server.wsUrl);
    sockets.push(resumed);
    resumed.send('authenticate', { token: owner.token });
    await resumed.waitFor('authResult');
    resumed.send('world:enter', { reconnectionToken: joined.data.reconnectionToken });
    await resumed.waitFor('world:joined');
    // The elevation did not come along.
    resumed.send('player:chat', { message: '/give coins 100' });
    assert.equal((await resumed.waitFor('error', (d) => d.event === 'player:chat')).data.code, 'NOT_ADMIN');
    assert.ok(!resumed.events.some((e) => e.type === 'admin:done'));
    resumed.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    await resumed.waitFor('admin:granted');
  });
});

describe('attempt limits: agents and metrics scrapers @db', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ADMIN_CODE, RATE_LIMIT_AUTH_PER_MINUTE: '10', METRICS_TOKEN: 'metrics-token-session-rights' });
  });

  after(async () => {
    await server?.close();
  });

  it('an agent\'s admin-code guesses are refused unchecked and never lock its owner out', async () => {
    const owner = await accountWithCharacter(server);
    const socket = await jsonPlayer(server, owner, owner.characterId);
    const { agentId } = await registerAgent(server, owner.token, owner.characterId);
    for (let i = 0; i < 12; i++) {
      const from = socket.events.length;
      const sent = await call(server, 'POST', `/api/agents/${agentId}/message`, owner.token, { message: `/admin guess-${i}` });
      assert.equal(sent.status, 200);
      assert.equal((await socket.waitFor('error', (d) => d.event === 'player:chat', 5_000, from)).data.code, 'ADMIN_NOT_ALLOWED');
    }
    socket.send('player:chat', { message: `/admin ${ADMIN_CODE}` });
    const answer = await Promise.race([socket.next('admin:granted'), socket.next('error')]);
    assert.equal(answer.type, 'admin:granted', JSON.stringify(answer.data));
    assert.equal((await call(server, 'POST', '/api/auth/refresh', owner.token)).status, 200);
    socket.send('world:leave');
    await socket.waitFor('world:left');
    socket.close();
  });

  it('wrong METRICS_TOKEN guesses count as authentication attempts: the address is blocked, even for the right token', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer guess-${i}` } });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    assert.equal(statuses[0], 401);
    assert.equal(statuses.at(-1), 429, statuses.join(','));
    const right = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: 'Bearer metrics-token-session-rights' } });
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) >= 1);
  });
});
