/**
 * The play page in headless Chromium (puppeteer-core), played the way a person plays it: clicks on the map, the
 * menus and the panels. Two tabs sign in anonymously, create characters, see each other move, chat and trade an
 * item through both screens (the database shows the swap); one gathers a log and banks it; one fights a chicken
 * until it dies; one drops its connection and takes its seat back; one dies and claims its gravestone (each player
 * in a browser of its own). A screenshot of each step goes to
 * .tmp/play/ (PLAY_SCREENSHOTS overrides) for a person to look at.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { uniqueName } from '../helpers/database.ts';
import { accountWithRoles, createCharacterRow } from '../helpers/players.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Chromium from Debian's packages (.ci/run installs it); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** The admin code the last test types in the chat box to summon something that can kill it. */
const ADMIN = 'play-page-admin';
/** Where the screenshots of each step go (git-ignored). */
const SHOTS = process.env.PLAY_SCREENSHOTS ?? fileURLToPath(new URL('../../.tmp/play/', import.meta.url));

// What the page holds is read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;
// What the functions run inside the page see there (the project's types hold no DOM): the page's `play` object
// (src/web/play/main.js) and its document.
declare const play: Data;
declare const document: Data;
declare const sessionStorage: Data;

describe('the play page in a headless browser @db', function () {
  this.timeout(240_000);
  let server: TestServer;
  /** One browser per player: a tab in the background would be throttled (no frames, no observers). */
  const browsers: Browser[] = [];
  const failures: string[] = [];
  let shots = 0;

  before(async function () {
    if (!CHROMIUM && process.env.REQUIRE_BROWSER_TESTS) throw new Error('REQUIRE_BROWSER_TESTS is set but no Chromium was found (CHROMIUM_PATH)');
    if (!CHROMIUM) {
      console.warn('    (skipped: no Chromium at /usr/bin/chromium; `apt-get install chromium`, or set CHROMIUM_PATH; .ci/run installs it)');
      this.skip();
    }
    server = await startTestServer({ CLIENT_BUILD_DIR: path.join(os.tmpdir(), 'no-such-client-build'), WS_MESSAGES_PER_SECOND: '1000', WORLDS_MIN: '2', ADMIN_CODE: ADMIN });
    mkdirSync(SHOTS, { recursive: true });
    for (const old of readdirSync(SHOTS).filter((name) => /^\d\d-.+\.png$/.test(name))) rmSync(path.join(SHOTS, old));
  });
  after(async () => {
    for (const browser of browsers) await browser.close();
    await server?.close();
  });
  afterEach(() => {
    assert.deepEqual(failures.splice(0), [], 'no script error and no failed request on any page');
  });

  /** The page in a browser of its own; script errors and failed requests are collected (and fail the test). */
  async function openTab(): Promise<Page> {
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Root in a container has no user namespace for the sandbox; the page is our own, on localhost.
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    browsers.push(browser);
    const page = (await browser.pages())[0] ?? await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    page.on('pageerror', (error) => failures.push(`page error: ${error}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => play?.ready === true, { timeout: 15_000 });
    return page;
  }

  async function shot(page: Page, step: string): Promise<void> {
    const file = path.join(SHOTS, `${String(++shots).padStart(2, '0')}-${step}.png`);
    await page.screenshot({ path: file as `${string}.png` });
    assert.ok(statSync(file).size > 5_000, file);
  }

  /** Anonymous identity, a new character with a starting kit, the default world. */
  async function signInAndCreate(page: Page, name: string, template: string, shoot = false): Promise<void> {
    if (shoot) await shot(page, 'sign-in');
    await page.click('#play-anonymously');
    await page.waitForSelector('#characters:not([hidden])', { timeout: 10_000 });
    await page.type('#new-name', name);
    await page.select('#template', template);
    if (shoot) await shot(page, 'create-character');
    await page.click('#create-form button[type=submit]');
    await page.waitForSelector('#game:not([hidden])', { timeout: 15_000 });
    await page.waitForFunction(() => play.session?.selfEntity !== undefined, { timeout: 10_000 });
  }

  const until = (page: Page, check: (arg: Data) => boolean, arg?: Data, timeout = 20_000) =>
    page.waitForFunction(check as (arg: Data) => boolean, { timeout, polling: 100 }, arg);

  const selfTile = (page: Page): Promise<{ x: number; z: number; id: string }> =>
    page.evaluate(() => { const s = play.session.selfEntity; return { x: s.x, z: s.z, id: s.id }; });

  /** Clicks a tile's centre on the map (left: the default option; right: the menu). */
  async function clickTile(page: Page, x: number, z: number, button: 'left' | 'right' = 'left'): Promise<void> {
    const point = await page.evaluate((t: { x: number; z: number }) => play.screen.pointOfTile(t.x, t.z), { x, z });
    await page.mouse.click(point.x, point.y, { button });
  }

  /** Clicks an entity where it is drawn now. */
  async function clickEntity(page: Page, kind: string, id: string, button: 'left' | 'right' = 'left'): Promise<void> {
    const point = await page.evaluate((e: { kind: string; id: string }) => {
      const { session, screen } = play;
      const entity = session.store.get(e.kind, e.id);
      const at = session.store.position(entity, session.now());
      return screen.pointOfTile(at.x, at.z);
    }, { kind, id });
    await page.mouse.click(point.x, point.y, { button });
  }

  /**
   * Left-clicks the nearest living NPC of a kind whose tile shows on the map (not under a panel) until the player is
   * attacking it: up to five clicks, each given five seconds.
   */
  async function attackNearest(page: Page, npcId: string): Promise<{ id: string }> {
    const tried: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const target = await page.evaluate((kind: string) => {
        const { session, screen } = play;
        const self = session.selfEntity;
        const canvas = screen.renderer.canvas;
        const live = [...session.store.list('npc')].filter((n: Data) => n.npcId === kind && n.health > 0)
          .sort((p: Data, q: Data) => Math.hypot(p.x - self.x, p.z - self.z) - Math.hypot(q.x - self.x, q.z - self.z));
        for (const npc of live) {
          const at = session.store.position(npc, session.now());
          const point = screen.pointOfTile(at.x, at.z);
          if (point && document.elementFromPoint(point.x, point.y) === canvas) return { id: npc.id, x: at.x, z: at.z, point };
        }
        return undefined;
      }, npcId);
      if (!target) { tried.push('none in sight'); await new Promise((r) => setTimeout(r, 500)); continue; }
      await page.mouse.click(target.point.x, target.point.y);
      try {
        await until(page, (id: string) => play.session.state.activity?.action === 'attack' && play.session.state.activity?.targetId === id, target.id, 5_000);
        return { id: target.id };
      } catch {
        tried.push(`${target.id} at ${target.x.toFixed(1)},${target.z.toFixed(1)}: activity ${JSON.stringify(await page.evaluate(() => play.session.state.activity))}`);
      }
    }
    assert.fail(`no attack began after five clicks: ${tried.join('; ')}; chat: ${(await logText(page)).slice(-400)}`);
  }

  async function chooseFromMenu(page: Page, label: RegExp): Promise<void> {
    await page.waitForSelector('#menu:not([hidden])', { timeout: 5_000 });
    const labels = await page.$$eval('#menu .menu-choice', (buttons) => buttons.map((b) => b.textContent ?? ''));
    const index = labels.findIndex((text) => label.test(text));
    assert.ok(index >= 0, `no menu choice ${label} in ${JSON.stringify(labels)}`);
    const buttons = await page.$$('#menu .menu-choice');
    await buttons[index].click();
  }

  /**
   * Walks (running) to a tile by clicking the map in legs of at most 12 tiles, as a person would: each leg ends on a
   * walkable tile, and the next starts where the player stopped.
   */
  async function walkTo(page: Page, x: number, z: number): Promise<void> {
    await page.evaluate(() => {
      const toggle = document.querySelector('#run-toggle');
      if (!toggle.checked) toggle.click();
    });
    let stuck = 0;
    for (let leg = 0; leg < 20; leg++) {
      const at = await selfTile(page);
      if (at.x === x && at.z === z) return;
      // A leg the server refuses (no path there) leaves the player where it was: the next one goes a little aside.
      const next = await page.evaluate((t: Data) => {
        const step = (from: number, to: number) => from + Math.max(-12, Math.min(12, to - from));
        const goal = { x: step(t.at.x, t.x) + ((t.stuck * 7) % 11) - 5 * Math.sign(t.stuck), z: step(t.at.z, t.z) + ((t.stuck * 5) % 9) - 4 * Math.sign(t.stuck) };
        for (let r = 0; r < 4; r++) {
          for (let dz = -r; dz <= r; dz++) for (let dx = -r; dx <= r; dx++) if (!play.world.isBlocked(goal.x + dx, goal.z + dz)) return { x: goal.x + dx, z: goal.z + dz };
        }
        return goal;
      }, { at, x, z, stuck });
      await clickTile(page, next.x, next.z);
      await until(page, () => play.session.path.pending === undefined, undefined, 5_000);
      await until(page, () => play.session.path.tiles.length === 0 && play.session.selfEntity.action !== 'walking', undefined, 20_000);
      const now = await selfTile(page);
      stuck = now.x === at.x && now.z === at.z ? stuck + 1 : 0;
    }
    const last = await page.evaluate(() => play.session.state.log.slice(-3).map((l: Data) => l.text).join(' | '));
    assert.fail(`could not walk to ${x},${z} (the chat box ends: ${last})`);
  }

  /** Clicks an element, again if a re-render replaced it meanwhile (panels redraw when the state changes). */
  async function press(page: Page, selector: string, button: 'left' | 'right' = 'left'): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await page.waitForSelector(selector, { timeout: 10_000 });
        await page.click(selector, { button });
        return;
      } catch (error) {
        if (attempt >= 3 || !/detached|not clickable|No node/i.test(String(error))) throw error;
      }
    }
  }

  const logText = (page: Page) => page.$eval('#chat-log', (e) => e.textContent ?? '');

  let a: Page;
  let b: Page;
  let nameA: string;
  let nameB: string;

  it('two tabs sign in anonymously, create characters, see each other move and chat', async () => {
    nameA = uniqueName('Ann').slice(0, 12);
    nameB = uniqueName('Ben').slice(0, 12);
    a = await openTab();
    b = await openTab();
    await signInAndCreate(a, nameA, 'wanderer', true);
    await signInAndCreate(b, nameB, 'ranger');
    const idA = (await selfTile(a)).id;
    const idB = (await selfTile(b)).id;
    await until(a, (id: string) => play.session.store.get('player', id) !== undefined, idB);
    await until(b, (id: string) => play.session.store.get('player', id) !== undefined, idA);
    assert.match(await a.$eval('#hud-name', (e) => e.textContent ?? ''), new RegExp(nameA));
    assert.equal(await a.$eval('#hud-world', (e) => e.textContent), '1');
    assert.match(await a.$eval('#connection-status', (e) => e.textContent ?? ''), /connected/);
    await shot(a, 'in-the-world');

    // A walks two tiles east; B sees it arrive. B walks one tile south; A sees that.
    const start = await selfTile(a);
    await clickTile(a, start.x + 2, start.z);
    await until(a, () => play.session.path.tiles.length > 0 || play.session.path.pending === undefined);
    await until(b, (t: Data) => { const e = play.session.store.get('player', t.id); return e.x === t.x && e.z === t.z; }, { id: idA, x: start.x + 2, z: start.z });
    const startB = await selfTile(b);
    await clickTile(b, startB.x, startB.z + 1);
    await until(a, (t: Data) => play.session.store.get('player', t.id).z === t.z, { id: idB, z: startB.z + 1 });
    await shot(b, 'seeing-each-other-move');

    // Public chat: in both logs, and above the speaker's head on the other's screen.
    await a.type('#chat-input', 'hello from the browser');
    await a.keyboard.press('Enter');
    await until(b, (id: string) => play.session.state.bubbles.get(id)?.text === 'hello from the browser', idA);
    assert.match(await logText(b), new RegExp(`${nameA}: hello from the browser`));
    await until(a, () => document.querySelector('#chat-log').textContent.includes('hello from the browser'));
    await shot(b, 'chat');

    // A refusal is a readable line, never silence: walking into the nearest wall.
    const wall = await a.evaluate(() => {
      const self = play.session.selfEntity;
      for (let r = 1; r < 10; r++) {
        for (let dz = -r; dz <= r; dz++) for (let dx = -r; dx <= r; dx++) if (play.world.isBlocked(self.x + dx, self.z + dz)) return { x: self.x + dx, z: self.z + dz };
      }
      return undefined;
    });
    assert.ok(wall, 'a wall near home');
    await clickTile(a, wall.x, wall.z);
    await until(a, () => [...document.querySelectorAll('#chat-log .line.error')].some((line: Data) => /blocked|cannot be walked/i.test(line.textContent)));
  });

  it('trade an item through both screens, with the anti-scam warning; the database shows the swap', async () => {
    const idA = (await selfTile(a)).id;
    const idB = (await selfTile(b)).id;
    // A right-clicks B on the map and asks to trade (walking within reach first if needed).
    await clickEntity(a, 'player', idB, 'right');
    await chooseFromMenu(a, new RegExp(`^Trade with ${nameB}$`));
    await b.waitForSelector('#trade-requests:not([hidden]) .accept', { timeout: 15_000 });
    assert.match(await b.$eval('#trade-requests', (e) => e.textContent ?? ''), new RegExp(`${nameA} wishes to trade with you`));
    await shot(b, 'trade-request');
    await b.click('#trade-requests .accept');
    await a.waitForSelector('#trade:not([hidden])', { timeout: 10_000 });
    await b.waitForSelector('#trade:not([hidden])', { timeout: 10_000 });

    // Offers: A the pickaxe and 10 coins (right click: "Offer 10"); B the knife.
    await press(a, '#panel-inventory .slot[data-item="bronze_pickaxe"]');
    await until(a, () => play.session.state.trade?.my.items.length === 1);
    await press(a, '#panel-inventory .slot[data-item="coins"]', 'right');
    await chooseFromMenu(a, /^Offer 10$/);
    await press(b, '#panel-inventory .slot[data-item="knife"]');
    await until(b, () => play.session.state.trade?.their.items.length === 2 && play.session.state.trade?.my.items.length === 1);
    await shot(a, 'trade-offers');
    // A takes the coins back: B is warned.
    await a.evaluate(() => {
      const coins = [...document.querySelectorAll('#trade .mine li')].find((li: Data) => li.dataset.item === 'coins');
      coins.querySelector('button').click();
    });
    await b.waitForSelector('#trade-warning', { timeout: 10_000 });
    assert.match(await b.$eval('#trade-warning', (e) => e.textContent ?? ''), new RegExp(`${nameA} has removed 10 × Coins`));
    await shot(b, 'trade-anti-scam-warning');

    // Screen 1: both accept. Screen 2: the warning is still there; both accept again.
    await a.click('#trade-accept');
    await until(b, () => play.session.state.trade?.their.accepted === true);
    await b.click('#trade-accept');
    await until(a, () => play.session.state.trade?.screen === 'confirm');
    await until(b, () => play.session.state.trade?.screen === 'confirm');
    assert.match(await b.$eval('#trade h2', (e) => e.textContent ?? ''), /Are you sure/);
    assert.ok(await b.$('#trade-warning'), 'the warning stays on the confirmation screen');
    assert.match(await a.$eval('#trade-value', (e) => e.textContent ?? ''), /You (gain|lose) \d+ gp of value|worth the same/);
    await shot(b, 'trade-confirm-screen');
    await a.click('#trade-accept');
    await until(b, () => play.session.state.trade?.their.accepted === true);
    await b.click('#trade-accept');
    await until(a, () => play.session.state.trade === null);
    await until(b, () => play.session.state.trade === null);
    await until(a, () => [...document.querySelectorAll('#panel-inventory .slot')].some((slot: Data) => slot.dataset.item === 'knife'));
    assert.match(await logText(a), /Trade completed: you received Knife/);
    await shot(a, 'trade-completed');

    const rows = async (characterId: string) => (await server.context.db.em.fork().execute(
      'select item_id, quantity from inventory where character_id = ? order by slot', [characterId])) as Array<{ item_id: string; quantity: number }>;
    const itemsA = await rows(idA);
    const itemsB = await rows(idB);
    assert.ok(itemsA.some((r) => r.item_id === 'knife') && !itemsA.some((r) => r.item_id === 'bronze_pickaxe'), JSON.stringify(itemsA));
    assert.ok(itemsB.some((r) => r.item_id === 'bronze_pickaxe') && !itemsB.some((r) => r.item_id === 'knife'), JSON.stringify(itemsB));
    assert.equal(itemsA.find((r) => r.item_id === 'coins')?.quantity, 25, 'the coins taken back stayed with A');
  });

  it('friends: a request by name, accepted, a private message, and the friend\'s world after a hop', async () => {
    await a.click('#side-tabs [data-panel="social"]');
    await b.click('#side-tabs [data-panel="social"]');
    await a.type('#add-friend', nameB);
    await a.keyboard.press('Enter');
    await b.waitForSelector('#panel-social button.small', { timeout: 10_000 });
    await until(b, () => play.session.state.social.incoming.length === 1);
    await press(b, '#panel-social li button.small');
    await until(a, (name: string) => play.session.state.social.friends.some((f: Data) => f.name === name && f.online && f.world === 1), nameB);
    await shot(a, 'friends');
    await a.type('#chat-input', `@${nameB} a private hello`);
    await a.keyboard.press('Enter');
    await until(b, () => [...document.querySelectorAll('#chat-log .line.private')].some((line: Data) => /a private hello/.test(line.textContent)));
    assert.match(await logText(b), new RegExp(`From ${nameA}: a private hello`));
    // A hops to world 2: B's friends list follows it there.
    await a.evaluate(() => document.querySelector('#hop-select').focus());
    await until(a, () => [...document.querySelectorAll('#hop-select option')].some((o: Data) => o.value === '2'));
    await a.select('#hop-select', '2');
    await a.click('#hop-button');
    await until(a, () => play.session.state.world?.world === 2 && document.querySelector('#hud-world').textContent === '2');
    await until(b, (name: string) => play.session.state.social.friends.some((f: Data) => f.name === name && f.world === 2), nameA);
    assert.match(await b.$eval('#friend-list', (e) => e.textContent ?? ''), /world 2/);
    await shot(b, 'friend-in-world-2');
    await b.close();
  });

  it('talks to an NPC, buys in a shop, switches a prayer on and off, reads skills and quests', async () => {
    await a.click('#side-tabs [data-panel="inventory"]');
    // Warden Hale wanders near home: talk (the page walks within reach), choose an option, close.
    const hale = await a.evaluate(() => [...play.session.store.list('npc')].find((n: Data) => n.npcId === 'warden_hale')?.id);
    assert.ok(hale, 'Warden Hale in view');
    await clickEntity(a, 'npc', hale, 'right');
    await chooseFromMenu(a, /^Talk-to Warden Hale$/);
    await a.waitForSelector('#dialogue:not([hidden])', { timeout: 20_000 });
    await shot(a, 'dialogue');
    const before = await a.evaluate(() => play.session.state.dialogue.nodeId);
    await press(a, '#dialogue .option');
    await until(a, (node: string) => play.session.state.dialogue === null || play.session.state.dialogue.nodeId !== node, before);
    if (await a.evaluate(() => play.session.state.dialogue !== null)) await a.click('#dialogue .close');
    await until(a, () => play.session.state.dialogue === null);

    // Mirela's general store: buy bread with the coins the trade left.
    await walkTo(a, 92, 90);
    const mirela = await a.evaluate(() => [...play.session.store.list('npc')].find((n: Data) => n.npcId === 'mirela')?.id);
    await clickEntity(a, 'npc', mirela, 'right');
    await chooseFromMenu(a, /^Trade with Mirela$/);
    await a.waitForSelector('#shop:not([hidden]) .slot[data-item="bread"]', { timeout: 20_000 });
    await press(a, '#shop .slot[data-item="bread"]');
    await until(a, () => play.session.state.self.inventory.some((s: Data) => s?.itemId === 'bread'));
    assert.match(await logText(a), /You bought Bread for \d+ coins\./);
    await shot(a, 'shop');
    await a.click('#shop .close');

    await a.click('#side-tabs [data-panel="prayer"]');
    await press(a, '#panel-prayer [data-prayer="bark_hide"]');
    await until(a, () => play.session.state.prayer.active.includes('bark_hide'));
    assert.equal(await a.$eval('#panel-prayer [data-prayer="bark_hide"]', (e) => e.getAttribute('aria-pressed')), 'true');
    await press(a, '#panel-prayer [data-prayer="bark_hide"]');
    await until(a, () => play.session.state.prayer.active.length === 0);
    await a.click('#side-tabs [data-panel="quests"]');
    assert.match(await a.$eval('#panel-quests', (e) => e.textContent ?? ''), /The Lost Locket[\s\S]*not started/);
    await a.click('#side-tabs [data-panel="skills"]');
    assert.match(await a.$eval('#panel-skills', (e) => e.textContent ?? ''), /woodcutting/);
    await shot(a, 'skills');
    await a.click('#side-tabs [data-panel="inventory"]');
  });

  it('gathers a log from a tree and banks it', async () => {
    // From home, west to the trees by the road, then the tree nearest.
    await walkTo(a, 74, 100);
    const tree = await a.evaluate(() => {
      const trees = [...play.session.store.list('resource')].filter((r: Data) => r.resourceId === 'tree' && !r.depleted);
      const self = play.session.selfEntity;
      trees.sort((p: Data, q: Data) => Math.hypot(p.x - self.x, p.z - self.z) - Math.hypot(q.x - self.x, q.z - self.z));
      return trees[0] && { id: trees[0].id };
    });
    assert.ok(tree, 'a tree in view');
    await clickEntity(a, 'resource', tree.id);
    await until(a, () => play.session.state.activity?.action === 'gather' || play.session.state.self.inventory.some((s: Data) => s?.itemId === 'logs'));
    await until(a, () => play.session.state.self.inventory.some((s: Data) => s?.itemId === 'logs'), undefined, 90_000);
    assert.match(await logText(a), /You get Logs\./);
    await shot(a, 'gathered-a-log');

    // To the bank: click a booth (the page walks within reach, then opens it), deposit the log from the inventory.
    await walkTo(a, 107, 92);
    const booth = await a.evaluate(() => play.world.stations.find((s: Data) => s.type === 'bank'));
    await clickTile(a, booth.bounds.minX, booth.bounds.minZ);
    await a.waitForSelector('#bank:not([hidden])', { timeout: 30_000 });
    await press(a, '#panel-inventory .slot[data-item="logs"]');
    await until(a, () => play.session.state.bank.tabs[0].items.some((i: Data) => i.itemId === 'logs'));
    await until(a, () => !play.session.state.self.inventory.some((s: Data) => s?.itemId === 'logs'));
    assert.ok(await a.$('#bank .slot[data-item="logs"]'), 'the log shows in the bank');
    await shot(a, 'banked-the-log');
    await a.click('#bank .close');
  });

  it('fights a chicken until it dies: hit splats, XP, the kill in the chat box', async () => {
    await walkTo(a, 92, 70);
    await until(a, () => [...play.session.store.list('npc')].some((n: Data) => n.npcId === 'chicken' && n.health > 0), undefined, 20_000);
    // Chickens wander, and panels cover parts of the map: like a person, click the nearest one in sight, and click
    // again when the click missed (it walked off, or the page was slow to take the click).
    const chicken = await attackNearest(a, 'chicken');
    await until(a, () => play.session.state.hits.length > 0, undefined, 30_000);
    await shot(a, 'fighting');
    await until(a, (id: string) => play.session.store.get('npc', id) === undefined || play.session.store.get('npc', id).health === 0, chicken.id, 120_000);
    await until(a, () => /You defeated the chicken/.test(document.querySelector('#chat-log').textContent), undefined, 10_000);
    const attack = await a.evaluate(() => play.session.state.skills.find((s: Data) => s.skill === 'attack' || s.skill === 'strength' || s.skill === 'defense'));
    assert.ok(attack, 'combat skills are listed');
    const xp = await a.evaluate(() => play.session.state.skills.filter((s: Data) => ['attack', 'constitution'].includes(s.skill)).map((s: Data) => s.xp));
    assert.ok(xp[0] > 0, `attack XP gained: ${xp}`);
    await shot(a, 'the-chicken-died');
  });

  it('takes its seat back after a dropped connection, where it stood', async () => {
    const before = await selfTile(a);
    await a.evaluate(() => play.connection.drop());
    await until(a, () => document.querySelector('#connection-status').getAttribute('data-state') === 'reconnecting', undefined, 5_000);
    await until(a, () => play.connection.state === 'in-world', undefined, 20_000);
    const after = await selfTile(a);
    assert.deepEqual({ x: after.x, z: after.z }, { x: before.x, z: before.z });
    // A neighbour a left click walks to: not blocked, and nothing drawn on it (the chicken's drop, left beside the
    // player by the fight before, turns the click into another option).
    const to = await a.evaluate((self: Data) => {
      for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]]) {
        const tile = { x: self.x + dx, z: self.z + dz };
        if (!play.world.isBlocked(tile.x, tile.z) && play.session.store.pickAll(tile.x, tile.z, play.session.now()).length === 0) return tile;
      }
      return null;
    }, after);
    assert.ok(to, `a free tile beside ${after.x},${after.z}`);
    await clickTile(a, to.x, to.z);
    await until(a, (t: Data) => play.session.selfEntity.x === t.x && play.session.selfEntity.z === t.z, to);
    await shot(a, 'reconnected');
  });

  it('teleports home, leaves to the character list, and comes back', async () => {
    const home = await a.evaluate(() => play.world.home);
    // A fight in the last 10 s refuses the teleport (IN_COMBAT, a line in the chat box): a person waits and tries again.
    for (let attempt = 0; ; attempt++) {
      const lines = await a.evaluate(() => play.session.state.log.length);
      await a.click('#home-button');
      await until(a, (n: number) => play.session.state.teleport !== null || play.session.state.log.slice(n).some((l: Data) => l.channel === 'error'), lines, 5_000);
      if (await a.evaluate(() => play.session.state.teleport !== null)) break;
      const refusal = await a.evaluate((n: number) => play.session.state.log.slice(n).find((l: Data) => l.channel === 'error'), lines);
      assert.ok(refusal.code === 'IN_COMBAT' && attempt < 3, `home teleport refused: ${JSON.stringify(refusal)}`);
      await sleep(4_000);
    }
    assert.match(await a.$eval('#hud-activity', (e) => e.textContent ?? ''), /casting home teleport/);
    await until(a, (h: Data) => play.session.selfEntity.x === h.x && play.session.selfEntity.z === h.z, home, 30_000);
    await a.click('#leave-button');
    await a.waitForSelector('#login:not([hidden]) .play', { timeout: 15_000 });
    assert.match(await a.$eval('#character-list', (e) => e.textContent ?? ''), new RegExp(nameA));
    await shot(a, 'left-the-world');
    await a.click('#character-list .play');
    await a.waitForSelector('#game:not([hidden])', { timeout: 15_000 });
    await until(a, (h: Data) => play.session.selfEntity?.x === h.x, home);
  });

  it('dies, and claims its gravestone back', async () => {
    // The chat box takes commands: an admin summons an ashen bandit (level 20) and the level-3 player attacks it.
    for (const line of [`/admin ${ADMIN}`, '/spawn ashen_bandit']) {
      await a.type('#chat-input', line);
      await a.keyboard.press('Enter');
    }
    await until(a, () => [...play.session.store.list('npc')].some((n: Data) => n.npcId === 'ashen_bandit'));
    const bandit = await a.evaluate(() => [...play.session.store.list('npc')].find((n: Data) => n.npcId === 'ashen_bandit').id);
    await clickEntity(a, 'npc', bandit);
    await until(a, () => play.session.state.death !== null, undefined, 90_000);
    assert.match(await logText(a), /Oh dear, you are dead/);
    await until(a, () => [...play.session.store.list('gravestone')].some((g: Data) => g.ownerId === play.session.selfId), undefined, 5_000);
    const grave = await a.evaluate(() => [...play.session.store.list('gravestone')].find((g: Data) => g.ownerId === play.session.selfId).id);
    await shot(a, 'dead');
    // The bandit may stand on it: a right click lists everything there.
    await clickEntity(a, 'gravestone', grave, 'right');
    await chooseFromMenu(a, /^Claim your gravestone$/);
    await until(a, () => /You take back/.test(document.querySelector('#chat-log').textContent), undefined, 30_000);
    await until(a, () => play.session.state.self.inventory.some((s: Data) => s?.itemId === 'coins'));
    await shot(a, 'gravestone-claimed');
  });

  it('signs in with a pasted server token and plays one of the account\'s characters', async () => {
    const account = await accountWithRoles(server, ['player']);
    const character = await createCharacterRow(server, account.accountId, { x: 101, z: 101 });
    const page = await openTab();
    await page.type('#token-input', account.token);
    await page.click('#token-form button[type=submit]');
    await page.waitForSelector(`#character-list .play[data-character="${character.id}"]`, { timeout: 10_000 });
    await page.click(`#character-list .play[data-character="${character.id}"]`);
    await page.waitForFunction(() => play.session?.selfEntity !== undefined, { timeout: 15_000 });
    assert.deepEqual(await selfTile(page).then((t) => [t.id, t.x, t.z]), [character.id, 101, 101]);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('play.token')), account.token, 'kept for this tab');
  });
});
