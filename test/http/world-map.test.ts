import assert from 'node:assert/strict';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { WORLD_MAP_PATH } from '../../src/http/routes/world-map.ts';
import { json } from '../helpers/http.ts';
import { accountWithRoles, anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { JsonWsClient } from '../helpers/ws-client.ts';

/** Chromium from Debian's packages (.ci/run installs it); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** Where the test writes what the browser showed (git-ignored). */
const SCREENSHOT = process.env.WORLD_MAP_SCREENSHOT ?? fileURLToPath(new URL('../../.tmp/world-map.png', import.meta.url));

function basic(token: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`operator:${token}`).toString('base64')}` };
}

async function tokenWithRoles(server: TestServer, roles: string[]): Promise<string> {
  return (await accountWithRoles(server, roles)).token;
}

describe('the live world map for operators @db', function () {
  this.timeout(90_000);
  let server: TestServer;
  let admin: string;
  let walker: JsonWsClient;
  let walkerName: string;
  const crowd: JsonWsClient[] = [];

  before(async () => {
    server = await startTestServer();
    admin = await tokenWithRoles(server, ['player', 'admin']);
    const account = await anonymousAccount(server);
    const character = await createCharacterRow(server, account.accountId, { x: 120, z: 96 });
    walkerName = character.name;
    walker = await jsonPlayer(server, account, character.id);
  });
  after(async () => {
    walker?.close();
    for (const socket of crowd) socket.close();
    await server?.close();
  });

  it('is for admins only: 401 with a Basic challenge, 403 for a player, on the page and its data alike', async () => {
    for (const suffix of ['', '/', '/map.js', '/api/worlds']) {
      const url = `${server.baseUrl}${WORLD_MAP_PATH}${suffix}`;
      const anonymous = await fetch(url);
      assert.equal(anonymous.status, 401, suffix);
      assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic realm=/);
      const player = await fetch(url, { headers: basic(await tokenWithRoles(server, ['player'])) });
      assert.equal(player.status, 403, suffix);
      assert.equal((await json(player)).code, 'INSUFFICIENT_ROLE');
    }
    const page = await fetch(`${server.baseUrl}${WORLD_MAP_PATH}`, { headers: basic(admin) });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await page.text(), /<canvas id="map"/);
  });

  it('serves the tile map and a whole-world snapshot; an unknown world is 404 WORLD_NOT_FOUND', async () => {
    const { worlds, process: answering } = await json(await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds`, { headers: basic(admin) }));
    assert.equal(worlds.length, 1);
    assert.equal(worlds[0].world, 1, 'worlds by the number players know them by');
    assert.equal(answering.pid, process.pid, 'the process answering, which lists only its own worlds');
    assert.equal(typeof answering.id, 'string');
    const worldId = worlds[0].worldId;
    const tiles = await json(await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds/${worldId}/tiles`, { headers: basic(admin) }));
    assert.equal(tiles.rows.length, tiles.depth);
    assert.ok(tiles.rows.every((row: string) => row.length === tiles.width && /^[.~#]+$/.test(row)));
    assert.ok(tiles.rows.join('').includes('~') && tiles.rows.join('').includes('#'), 'water and blocked tiles are drawn');
    const snapshot = await json(await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds/${worldId}/snapshot`, { headers: basic(admin) }));
    assert.equal(snapshot.players, 1);
    assert.equal(snapshot.tickMs, 600, 'the page polls once per game tick, of the length the server says');
    assert.deepEqual(snapshot.entities.players.map((p: { name: string }) => p.name), [walkerName]);
    assert.ok(snapshot.entities.npcs.length > 0 && snapshot.entities.resources.length > 0);
    const missing = await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds/nope/snapshot`, { headers: basic(admin) });
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).code, 'WORLD_NOT_FOUND');
  });

  describe('in a headless browser', function () {
    let browser: Browser | undefined;
    let page: Page;

    before(async function () {
      if (!CHROMIUM && process.env.REQUIRE_BROWSER_TESTS) throw new Error('REQUIRE_BROWSER_TESTS is set but no Chromium was found (CHROMIUM_PATH)');
      if (!CHROMIUM) {
        console.warn('    (skipped: no Chromium at /usr/bin/chromium; `apt-get install chromium`, or set CHROMIUM_PATH; .ci/run installs it)');
        this.skip();
      }
      const { default: puppeteer } = await import('puppeteer-core');
      browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        // Root in a container has no user namespace for the sandbox; the page is our own, on localhost.
        args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
      });
      page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.authenticate({ username: 'operator', password: admin });
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(String(error)));
      page.on('response', (response) => {
        if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failures.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${server.baseUrl}${WORLD_MAP_PATH}`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (globalThis as unknown as { worldMap?: { updates: number } }).worldMap?.updates! >= 1, { timeout: 15_000 })
        .catch((error) => { throw new Error(`the map never updated: ${failures.join('; ')} (${error})`); });
      assert.deepEqual(failures, []);
    });
    after(async () => {
      await browser?.close();
    });

    it('draws the map with the players, the tick time and the player count, and follows a player moving live', async () => {
      assert.equal(await page.$eval('#player-count', (e) => e.textContent), '1');
      assert.match(await page.$eval('#tick-ms', (e) => e.textContent ?? ''), /^\d+\.\d\d ms$/);
      const tick = Number(await page.$eval('#tick', (e) => e.textContent));
      assert.ok(tick >= 1);
      assert.match(await page.$eval('#player-list', (e) => e.textContent ?? ''), new RegExp(walkerName));

      // The canvas holds the tile map: it is not one colour.
      const colours = await page.$eval('#map', (canvas) => {
        type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
        const c = canvas as unknown as Canvas;
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const seen = new Set<string>();
        for (let i = 0; i < data.length; i += 4 * 97) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return seen.size;
      });
      assert.ok(colours >= 4, `the canvas shows ${colours} colours`);

      const path = walker.next('player:path');
      walker.send('player:move', { x: 124, z: 96 });
      await path;
      await page.waitForFunction((name: string) => {
        const map = (globalThis as unknown as { worldMap: { snapshot: { entities: { players: Array<{ name: string; x: number }> } } } }).worldMap;
        return map.snapshot.entities.players.find((p) => p.name === name)?.x === 124;
      }, { timeout: 15_000 }, walkerName);
      assert.match(await page.$eval('#player-list', (e) => e.textContent ?? ''), /124,96/);
      assert.ok(Number(await page.$eval('#tick', (e) => e.textContent)) > tick, 'the tick advances on the page');
    });

    it('inspects a player from the list and a resource clicked on the map; writes a screenshot', async () => {
      await page.click('#player-list li');
      assert.match(await page.$eval('#inspector', (e) => e.textContent ?? ''), new RegExp(`^player\\n[\\s\\S]*"name": "${walkerName}"`));

      // A resource node stands still and alone: clicking its tile inspects it.
      const target = await page.evaluate(() => {
        type Entity = { id: string; x: number; z: number };
        const map = (globalThis as unknown as { worldMap: { scale: number; snapshot: { entities: Record<string, Entity[]> } } }).worldMap;
        const all = Object.values(map.snapshot.entities).flat();
        const alone = map.snapshot.entities.resources.find((r) => all.every((e) => e === r || Math.hypot(e.x - r.x, e.z - r.z) > 3));
        return alone && { id: alone.id, x: alone.x, z: alone.z, scale: map.scale };
      });
      assert.ok(target, 'a resource with nothing near it');
      const box = (await (await page.$('#map'))!.boundingBox())!;
      await page.mouse.click(box.x + (target.x + 0.5) * target.scale, box.y + (target.z + 0.5) * target.scale);
      const inspected = await page.$eval('#inspector', (e) => e.textContent ?? '');
      assert.match(inspected, /^resource\n/);
      assert.ok(inspected.includes(`"id": "${target.id}"`), inspected);

      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT as `${string}.png`, fullPage: true });
      assert.ok(statSync(SCREENSHOT).size > 10_000, 'a screenshot of the map was written');
      console.log(`    screenshot: ${SCREENSHOT}`);
    });

    // Issue #35 item 6: what an operator needs to read the map.
    it('names the world "World 1" with its players and the process, and NPCs on hover and in the inspector', async () => {
      assert.match(await page.$eval('#world', (e) => (e as unknown as { selectedOptions: Array<{ textContent: string }> }).selectedOptions[0].textContent), /^World 1 · 1 player$/);
      assert.match(await page.$eval('#process', (e) => e.textContent ?? ''), new RegExp(`\\(pid ${process.pid}\\)$`));
      const npc = await page.evaluate(() => {
        type Entity = { id: string; name: string; x: number; z: number };
        const map = (globalThis as unknown as { worldMap: { scale: number; snapshot: { entities: Record<string, Entity[]> } } }).worldMap;
        const all = Object.values(map.snapshot.entities).flat();
        const alone = map.snapshot.entities.npcs.find((n) => all.every((e) => e === n || Math.hypot(e.x - n.x, e.z - n.z) > 3));
        return alone && { name: alone.name, x: alone.x, z: alone.z, scale: map.scale };
      });
      assert.ok(npc, 'an NPC standing alone');
      const box = (await (await page.$('#map'))!.boundingBox())!;
      await page.mouse.move(box.x + (npc.x + 0.5) * npc.scale, box.y + (npc.z + 0.5) * npc.scale);
      await page.waitForFunction(() => (globalThis as unknown as { worldMap: { hoverText?: string } }).worldMap.hoverText !== undefined, { timeout: 5_000 });
      // NPCs wander: whichever NPC is under the pointer now is named.
      assert.match(await page.evaluate(() => (globalThis as unknown as { worldMap: { hoverText: string } }).worldMap.hoverText), /^[A-Z][A-Za-z ]+$/);
      await page.mouse.click(box.x + (npc.x + 0.5) * npc.scale, box.y + (npc.z + 0.5) * npc.scale);
      assert.match(await page.$eval('#inspected', (e) => e.textContent ?? ''), /^npc: [A-Z][A-Za-z ]+$/);
    });

    it('keeps names readable where players crowd one tile, and draws the home square above them', async () => {
      const tiles = await json(await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds/${(await json(await fetch(`${server.baseUrl}${WORLD_MAP_PATH}/api/worlds`, { headers: basic(admin) }))).worlds[0].worldId}/tiles`, { headers: basic(admin) }));
      const spot = { x: tiles.home.x - 1, z: tiles.home.z };
      for (let i = 0; i < 6; i++) {
        const account = await anonymousAccount(server);
        crowd.push(await jsonPlayer(server, account, (await createCharacterRow(server, account.accountId, spot)).id));
      }
      await page.mouse.move(0, 0);
      await page.waitForFunction(() => (globalThis as unknown as { worldMap: { snapshot: { players: number } } }).worldMap.snapshot.players === 7, { timeout: 15_000 });
      const placed = await page.evaluate(() => (globalThis as unknown as { worldMap: { labels: Array<{ text: string; left: number; top: number; width: number; height: number }> } }).worldMap.labels);
      assert.ok(placed.some((l) => l.text === '+3 more'), JSON.stringify(placed.map((l) => l.text)));
      for (const a of placed) {
        for (const b of placed) {
          if (a !== b) assert.ok(!(a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height), `${a.text} overlaps ${b.text}`);
        }
      }
      // The home square's west edge runs through the crowd's tile: it is drawn over the players, in white.
      const pixel = await page.$eval('#map', (canvas, at: { x: number; z: number }) => {
        type Canvas = { getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
        const scale = (globalThis as unknown as { worldMap: { scale: number } }).worldMap.scale;
        return [...(canvas as unknown as Canvas).getContext('2d').getImageData(Math.round(at.x * scale), Math.round((at.z + 0.5) * scale), 1, 1).data];
      }, spot);
      assert.ok(pixel[0] > 200 && pixel[1] > 200 && pixel[2] > 200, `the home outline shows over the players: rgba(${pixel.join(',')})`);
    });
  });
});
