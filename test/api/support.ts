/** Shared set-up of the REST API suites: accounts, characters, agents, and small request helpers. */
import { randomUUID } from 'node:crypto';
import { User } from '../../src/db/entities/index.ts';
import { json } from '../helpers/http.ts';
import { anonymousAccount, createCharacterRow, type TestAccount } from '../helpers/players.ts';
import type { TestServer } from '../helpers/server.ts';

export interface Call {
  status: number;
  // Bodies are checked field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export async function call(server: TestServer, method: string, path: string, token?: string, body?: unknown): Promise<Call> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? safeJson(text) : null, headers: response.headers };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function accountWithCharacter(server: TestServer, at?: { x: number; z: number }): Promise<TestAccount & { characterId: string }> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId, at);
  return { ...account, characterId: character.id };
}

/** A token of an account without the player role (suspended from the game API): 403 everywhere. */
export async function suspendedToken(server: TestServer): Promise<string> {
  const em = server.context.db.em.fork();
  const id = randomUUID();
  em.create(User, { id, displayName: 'Suspended', roles: [], isTemporary: false });
  await em.flush();
  return server.context.auth.tokens.sign({ accountId: id, roles: [], scope: 'player' }).token;
}

export async function registerAgent(server: TestServer, token: string, characterId: string): Promise<{ agentId: string; agentToken: string }> {
  const response = await fetch(`${server.baseUrl}/api/agent`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ characterId }),
  });
  const body = await json(response);
  if (response.status !== 201) throw new Error(`agent registration failed: ${response.status} ${JSON.stringify(body)}`);
  return { agentId: body.agent.id, agentToken: body.token };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}
