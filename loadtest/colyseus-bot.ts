/**
 * A bot for Colyseus' own load-test tool (`@colyseus/loadtest`, its TUI and counters), ready for this server:
 *
 *   npm run loadtest:colyseus -- --numClients 50 [--endpoint http://127.0.0.1:5555] [--duration 60]
 *                                [--tokens tokens.txt] [--delay 50] [--output loadtest.log] [--chatEvery 20]
 *
 * Each bot gets a server token as docs/auth.md says — `POST /api/auth/anonymous` (anonymous mode: one
 * authentication attempt each), or line N of `--tokens` (made by `npm run mint-tokens`: no attempt at all, for a
 * server with an identity provider or with limits on) — joins `world` with a new character through the SDK's
 * matchmaking (`Authorization: Bearer`), walks to a random tile within 4 tiles of where it entered every 600 ms
 * tick and chats every 20 moves (`--chatEvery`). `--duration` seconds after the first bot starts (the tool's own
 * start-up does not count), every bot leaves and the tool writes its summary (to `--output` when given) and exits; a
 * bot still joining then is named in the summary's log with how long it waited. At exit the bot prints its own plain
 * summary (connected, failed, errors, messages, move → answer percentiles; lib/colyseus-summary.ts) below the
 * tool's vanished screen, and rewrites `--output` without the screen's `{red-fg}` markup, the summary appended.
 * docs/loadtest.md explains the rest.
 *
 * The tool counts connections by wrapping `Client.prototype.join*` of the `@colyseus/sdk` it imports, so the bot
 * must use that very module. The project's npm `overrides` entry makes npm install one SDK, the project's 0.18, for
 * the tool and the bot alike: the tool's own 0.17 cannot join a 0.18 server, and a second copy (a nested 0.18
 * install) would leave every counter at 0 while the bots play. The file runs under Node 22's type stripping (no
 * loader needed) as the tool's ESM build does.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cli, type Options } from '@colyseus/loadtest';
import { Client, type Room } from '@colyseus/sdk';
import { TICK_MS } from '../src/game/ticks.ts';
import { BotRunStats, plainSummary, withoutMarkup } from './lib/colyseus-summary.ts';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:5555';
export const MAX_CLIENTS = 5_000;
export const MAX_DURATION_SECONDS = 86_400;
const CHAT_EVERY_MOVES = 20;
const MAX_CHAT_EVERY = 10_000;
const WANDER_TILES = 4;
const STEP_TIMEOUT_MS = 10_000;

/** The tool's options are read by `cli()` from argv; ours are read here, with the defaults this server needs. */
function ourOptions(argv: string[]): { duration: number; chatEvery: number; tokens: string[] | undefined; output: string | undefined; argv: string[] } {
  const { values: args } = parseArgs({
    args: argv, strict: false, allowPositionals: true,
    options: {
      numClients: { type: 'string' }, duration: { type: 'string' }, chatEvery: { type: 'string' }, tokens: { type: 'string' }, endpoint: { type: 'string' }, room: { type: 'string' },
      output: { type: 'string' },
    },
  });
  const problems: string[] = [];
  const numClients = args.numClients === undefined ? 1 : Number(args.numClients);
  if (!Number.isInteger(numClients) || numClients < 1 || numClients > MAX_CLIENTS) problems.push(`--numClients must be 1 to ${MAX_CLIENTS}`);
  const duration = args.duration === undefined ? 60 : Number(args.duration);
  if (!Number.isFinite(duration) || duration <= 0 || duration > MAX_DURATION_SECONDS) problems.push(`--duration must be 1 to ${MAX_DURATION_SECONDS} seconds`);
  const chatEvery = args.chatEvery === undefined ? CHAT_EVERY_MOVES : Number(args.chatEvery);
  if (!Number.isInteger(chatEvery) || chatEvery < 1 || chatEvery > MAX_CHAT_EVERY) problems.push(`--chatEvery must be 1 to ${MAX_CHAT_EVERY} moves`);
  let tokens: string[] | undefined;
  if (args.tokens !== undefined) {
    tokens = fs.readFileSync(String(args.tokens), 'utf8').split('\n').map((line) => line.trim()).filter(Boolean);
    if (tokens.length < numClients) problems.push(`--tokens has ${tokens.length} tokens for ${numClients} clients (npm run mint-tokens -- --count ${numClients})`);
  }
  if (args.room !== undefined && args.room !== 'world') problems.push('--room must be world (the bot plays the world room)');
  if (problems.length > 0) {
    process.stderr.write(`colyseus-bot: ${problems.join('; ')}\n`);
    process.exit(2);
  }
  const extra = [...(args.endpoint === undefined ? ['--endpoint', DEFAULT_ENDPOINT] : []), ...(args.room === undefined ? ['--room', 'world'] : [])];
  const output = typeof args.output === 'string' ? path.resolve(args.output) : undefined;
  return { duration, chatEvery, tokens, output, argv: [...argv, ...extra] };
}

function httpBase(endpoint: string): string {
  return endpoint.replace(/^ws(s?):/, 'http$1:').replace(/\/+$/, '');
}

/** A server token: the minted one for this client, or a new temporary identity (anonymous mode). */
async function tokenFor(options: Options, tokens: string[] | undefined): Promise<string> {
  if (tokens) return tokens[options.clientId];
  const response = await fetch(`${httpBase(options.endpoint)}/api/auth/anonymous`, { method: 'POST', signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  const body = await response.json().catch(() => ({})) as { token?: string; code?: string; detail?: string };
  if (response.status !== 201 || typeof body.token !== 'string') {
    throw new Error(`POST /api/auth/anonymous answered ${response.status} ${body.code ?? ''} ${body.detail ?? ''}`
      + (body.code === 'ANONYMOUS_MODE_DISABLED' || body.code === 'AUTH_RATE_LIMITED' ? ' — mint tokens instead: npm run mint-tokens, then --tokens FILE' : ''));
  }
  return body.token;
}

function characterName(clientId: number): string {
  return `Bot${clientId.toString(36)}${Math.random().toString(36).slice(2)}`.slice(0, 12);
}

const stats = new BotRunStats();
const startedAt = performance.now();
/** Set once the run ends: a bot leaving after it is not an error. */
let ending = false;
/** Per room, when each of its moves not yet answered was sent (the room answers a client's events in order). */
const unanswered = new Map<Room, number[]>();
/** Refusals that are part of wandering, not errors. */
const WANDERING_REFUSALS = new Set(['BLOCKED', 'OUT_OF_BOUNDS']);

const rooms = new Set<Room>();
/** Bots whose token or join has not settled yet: client id → when it started (ms, `performance.now()`). */
const joining = new Map<number, number>();
let runTimer: NodeJS.Timeout | undefined;

/** Arms the end of the run once, when the first bot starts. */
function startRun(durationSeconds: number): void {
  runTimer ??= setTimeout(() => void finish(), durationSeconds * 1000).unref();
}

/**
 * One bot: token, join with a new character, then walk and chat until the run ends. Resolves once joined (the tool
 * starts the next bot then) and walks on in the background.
 */
async function bot(options: Options, tokens: string[] | undefined, chatEvery: number): Promise<void> {
  joining.set(options.clientId, performance.now());
  let room: Room;
  try {
    const token = await tokenFor(options, tokens);
    const client = new Client(httpBase(options.endpoint), { headers: { Authorization: `Bearer ${token}` } });
    room = await client.join(options.roomName, { createCharacter: { name: characterName(options.clientId) } });
  } catch (error) {
    stats.failed++;
    throw error;
  } finally {
    joining.delete(options.clientId);
  }
  stats.connected++;
  rooms.add(room);
  const moves: number[] = [];
  unanswered.set(room, moves);
  const answered = () => {
    const sentAt = moves.shift();
    if (sentAt !== undefined) stats.roundTrip.add(performance.now() - sentAt);
  };
  let home: { x: number; z: number } | undefined;
  room.onMessage('player:sync', (sync: { x: number; z: number }) => {
    stats.received++;
    home ??= { x: sync.x, z: sync.z };
  });
  room.onMessage('player:path', () => {
    stats.received++;
    answered();
  });
  room.onMessage('error', (error: { code: string; message: string; event?: string }) => {
    stats.received++;
    if (error.event === 'player:move') answered();
    // Walking into a wall or water is part of wandering; anything else is worth seeing in the tool's log.
    if (!WANDERING_REFUSALS.has(error.code)) {
      stats.errors++;
      console.warn(`bot ${options.clientId}: ${error.code} ${error.message}`);
    }
  });
  room.onMessage('*', () => {
    stats.received++;
  });
  room.onLeave(() => {
    if (!ending) stats.errors++;
    rooms.delete(room);
    unanswered.delete(room);
  });
  void walk(room, options.clientId, chatEvery, () => home);
}

async function walk(room: Room, clientId: number, chatEvery: number, home: () => { x: number; z: number } | undefined): Promise<void> {
  let moves = 0;
  while (rooms.has(room)) {
    await sleep(TICK_MS);
    const at = home();
    if (!at || !rooms.has(room)) continue;
    const x = at.x + Math.floor(Math.random() * (2 * WANDER_TILES + 1)) - WANDER_TILES;
    const z = at.z + Math.floor(Math.random() * (2 * WANDER_TILES + 1)) - WANDER_TILES;
    unanswered.get(room)?.push(performance.now());
    room.send('player:move', { x, z });
    stats.sent++;
    if (++moves % chatEvery === 0) {
      room.send('player:chat', { message: `bot ${clientId} says hello (${moves} moves)` });
      stats.sent++;
    }
  }
}

/** Ends the run: every bot leaves (bounded), then the tool's own exit writes its summary. */
async function finish(): Promise<void> {
  ending = true;
  for (const [clientId, since] of joining) {
    console.warn(`bot ${clientId}: still joining when the run ended, after ${Math.round(performance.now() - since)} ms`);
  }
  await Promise.race([Promise.allSettled([...rooms].map((room) => room.leave())), sleep(5_000)]);
  process.kill(process.pid, 'SIGTERM');
}

/**
 * At exit, after the tool's own exit handlers (it wrote its log file and the screen gave the terminal back): the
 * plain summary on stdout, and the log file without the screen's markup, the summary appended. Synchronous writes:
 * nothing else runs at exit.
 */
function summarizeAtExit(output: string | undefined): void {
  process.once('exit', () => {
    ending = true;
    const summary = plainSummary(stats, (performance.now() - startedAt) / 1000);
    fs.writeSync(1, `\n${summary}`);
    if (output === undefined || !fs.existsSync(output)) return;
    fs.writeFileSync(output, `${withoutMarkup(fs.readFileSync(output, 'utf8')).trimEnd()}\n\n${summary}`);
  });
}

if (import.meta.filename === process.argv[1]) {
  const { duration, chatEvery, tokens, output, argv } = ourOptions(process.argv.slice(2));
  process.argv = [...process.argv.slice(0, 2), ...argv];
  cli((options) => {
    startRun(duration);
    return bot(options, tokens, chatEvery);
  });
  summarizeAtExit(output);
}
