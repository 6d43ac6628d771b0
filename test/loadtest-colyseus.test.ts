/**
 * `npm run loadtest:colyseus`: Colyseus' own load-test tool with loadtest/colyseus-bot.ts, against the real server on
 * loopback, briefly. The tool's own summary (written to --output) must report every bot connected and none failed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mintLoadTestTokens } from '../src/tools/mint-tokens.ts';
import { PROJECT_ROOT } from './helpers/process.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

interface ToolRun {
  code: number | null;
  summary: string;
  output: string;
}

/** Runs the npm script for a few seconds (the bot stops itself after --duration; the kill is a safety net). */
function runTool(endpoint: string, outputFile: string, args: string[], durationSeconds = 3): Promise<ToolRun> {
  const child = spawn('npm', ['run', '--silent', 'loadtest:colyseus', '--',
    '--endpoint', endpoint, '--duration', String(durationSeconds), '--output', outputFile, ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const safety = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => {
    clearTimeout(safety);
    resolve({ code, output, summary: fs.existsSync(outputFile) ? fs.readFileSync(outputFile, 'utf8') : '' });
  }));
}

/** The server's game_messages_in_total for one event (read from its registry, as /metrics would show it). */
async function messagesIn(server: TestServer, event: string): Promise<number> {
  const text = await server.context.metrics.registry.metrics();
  const match = new RegExp(`^game_messages_in_total\\{event="${event}"\\} (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

function counter(summary: string, label: string): number {
  const match = new RegExp(`${label}: (\\d+)`).exec(summary);
  assert.ok(match, `"${label}" in the tool's summary:\n${summary}`);
  return Number(match[1]);
}

describe('npm run loadtest:colyseus (Colyseus\' own load-test tool) @db', function () {
  this.timeout(120_000);
  let server: TestServer;
  let dir: string;

  before(async () => {
    // Two authentication attempts a minute: enough for two anonymous logins, not for a third.
    server = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: '2' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colyseus-loadtest-'));
  });
  after(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('bots with anonymous tokens join the world, walk and chat, and the tool counts them connected', async () => {
    const [moves, chats] = [await messagesIn(server, 'player:move'), await messagesIn(server, 'player:chat')];
    const run = await runTool(server.baseUrl, path.join(dir, 'anonymous.log'), ['--numClients', '2', '--chatEvery', '2']);
    assert.equal(run.code, 0, run.output.slice(-2000));
    assert.equal(counter(run.summary, 'Successful connections'), 2, run.output.slice(-2000) + run.summary);
    assert.equal(counter(run.summary, 'Failed connections'), 0);
    assert.equal(counter(run.summary, 'Total errors'), 0);
    // 3 s at one move per 600 ms tick: a few moves and a chat or two from each bot reached the world.
    assert.ok(await messagesIn(server, 'player:move') - moves >= 4, 'the bots walked');
    assert.ok(await messagesIn(server, 'player:chat') - chats >= 2, 'the bots chatted');
  });

  it('bots with minted tokens spend no authentication attempt (the limit is already used up)', async () => {
    const minted = await mintLoadTestTokens({ em: server.context.db.em.fork(), tokens: server.context.auth.tokens, count: 3, ttlSeconds: 600 });
    const tokensFile = path.join(dir, 'tokens.txt');
    fs.writeFileSync(tokensFile, minted.map((entry) => entry.token).join('\n'));
    const run = await runTool(server.baseUrl, path.join(dir, 'minted.log'), ['--numClients', '3', '--tokens', tokensFile]);
    assert.equal(run.code, 0, run.output.slice(-2000));
    assert.equal(counter(run.summary, 'Successful connections'), 3, run.output.slice(-2000) + run.summary);
    assert.equal(counter(run.summary, 'Failed connections'), 0);
  });

  it('prints a plain summary when it ends: connections, failures, errors, messages and round-trip percentiles', async () => {
    const minted = await mintLoadTestTokens({ em: server.context.db.em.fork(), tokens: server.context.auth.tokens, count: 2, ttlSeconds: 600 });
    const tokensFile = path.join(dir, 'summary-tokens.txt');
    fs.writeFileSync(tokensFile, minted.map((entry) => entry.token).join('\n'));
    const run = await runTool(server.baseUrl, path.join(dir, 'summary.log'), ['--numClients', '2', '--tokens', tokensFile]);
    assert.equal(run.code, 0, run.output.slice(-2000));
    // The terminal's last lines: the tool's screen is gone by then, and the summary is plain text.
    const summary = /\nloadtest:colyseus summary\n[^\x1b]*$/.exec(run.output)?.[0];
    assert.ok(summary, `a plain summary ends the output:\n${JSON.stringify(run.output.slice(-1500))}`);
    const figure = (label: string) => Number(new RegExp(`^  ${label}: +(\\d+)`, 'm').exec(summary)?.[1]);
    assert.equal(figure('connected'), 2, summary);
    assert.equal(figure('failed'), 0, summary);
    assert.equal(figure('errors'), 0, summary);
    assert.ok(figure('messages sent') >= 4 && figure('messages received') >= 4, summary);
    const roundTrip = /^  move → answer, ms: +p50 ([\d.]+) · p90 ([\d.]+) · p99 ([\d.]+) · max ([\d.]+) \((\d+) moves\)$/m.exec(summary);
    assert.ok(roundTrip, summary);
    const [p50, p90, p99, max] = roundTrip.slice(1, 5).map(Number);
    assert.ok(p50 > 0 && p50 <= p90 && p90 <= p99 && p99 <= max, summary);
    assert.ok(run.summary.includes(summary.trim()), 'the --output file ends with the same summary');
  });

  it('writes --output without the terminal UI\'s markup, even for failed bots (the limit is used up)', async () => {
    const run = await runTool(server.baseUrl, path.join(dir, 'failed.log'), ['--numClients', '1']);
    assert.equal(run.code, 0, run.output.slice(-2000));
    assert.match(run.summary, /AUTH_RATE_LIMITED/, 'the failure is in the file');
    assert.doesNotMatch(run.summary, /\{\/?[a-z]+(-fg|-bg)?\}/, `no {red-fg}-style markup:\n${run.summary}`);
    assert.match(run.output, /^  failed: +1$/m, 'the plain summary counts the failed bot');
  });

  it('refuses out-of-bounds runs before connecting anything', async () => {
    const run = await runTool(server.baseUrl, path.join(dir, 'refused.log'), ['--numClients', '5001']);
    assert.equal(run.code, 2);
    assert.match(run.output, /--numClients must be 1 to 5000/);
    assert.equal(run.summary, '');
  });
});

describe('npm run loadtest:colyseus against a server whose matchmaking never answers', function () {
  this.timeout(60_000);
  let dir: string;
  let stalled: http.Server;
  let endpoint: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colyseus-loadtest-'));
    // Logins succeed; every other request (the SDK's matchmaking) is left hanging, as an overloaded server's would be.
    stalled = http.createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/api/auth/anonymous') {
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 'stalled-test-token' }));
      }
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  });
  after(async () => {
    stalled?.closeAllConnections();
    await new Promise((resolve) => stalled?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends after --duration and names the bot that was still joining in its summary', async () => {
    const run = await runTool(endpoint, path.join(dir, 'stalled.log'), ['--numClients', '2'], 1);
    assert.equal(run.code, 0, run.output.slice(-2000));
    assert.equal(counter(run.summary, 'Successful connections'), 0, run.summary);
    assert.equal(counter(run.summary, 'Failed connections'), 0, run.summary);
    // Bots start one after another, so only the first is under way; it waited about the run's second.
    const waited = /bot 0: still joining when the run ended, after (\d+) ms/.exec(run.summary);
    assert.ok(waited, `the summary names the joining bot:\n${run.summary}`);
    assert.ok(Number(waited[1]) >= 900, `it waited about --duration: ${waited[1]} ms`);
    assert.doesNotMatch(run.summary, /bot 1:/);
  });
});
