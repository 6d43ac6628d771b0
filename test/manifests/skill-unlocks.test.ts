import assert from 'node:assert/strict';
import express from 'express';
import { createSkillUnlocksRouter } from '../../src/http/routes/skill-unlocks.ts';
import { readManifestDir } from '../../src/manifests/manifest-cache.ts';
import { toManifestFiles } from '../../src/manifests/manifest-file.ts';
import { SKILL_UNLOCK_TYPES } from '../../src/manifests/schemas/skill-unlocks.ts';
import { emptySkillUnlocks, skillUnlocksFromManifestFiles, sortSkillUnlocks } from '../../src/manifests/skill-unlocks.ts';
import { SKILL_NAMES } from '../../src/manifests/skills.ts';
import { validateManifests } from '../../src/manifests/validate-manifests.ts';
import { listen, rawRequest, type RunningServer } from './support/http.ts';
import { BUNDLED_MANIFESTS } from './support/temp-dir.ts';

const ALL_SKILLS = [
  'agility', 'attack', 'constitution', 'cooking', 'crafting', 'defense', 'firemaking', 'fishing', 'fletching',
  'magic', 'mining', 'prayer', 'ranged', 'runecrafting', 'smithing', 'strength', 'woodcutting',
];

describe('GET /api/data/skill-unlocks', () => {
  let server: RunningServer;

  before(async () => {
    const data = validateManifests(await readManifestDir(BUNDLED_MANIFESTS));
    const app = express();
    app.use(createSkillUnlocksRouter(data.skillUnlocks));
    server = await listen(app);
  });

  after(() => server.close());

  it('is public and returns exactly the 17 lower-case skills', async () => {
    const res = await rawRequest(server.url, '/api/data/skill-unlocks');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = JSON.parse(res.body.toString('utf8'));
    assert.deepEqual(Object.keys(body).sort(), ALL_SKILLS);
    assert.deepEqual([...SKILL_NAMES].sort(), ALL_SKILLS);
  });

  it('returns non-empty lists of {level, description, type} sorted by level with valid types', async () => {
    const body = JSON.parse((await rawRequest(server.url, '/api/data/skill-unlocks')).body.toString('utf8'));
    for (const skill of ALL_SKILLS) {
      const entries = body[skill] as { level: number; description: string; type: string }[];
      assert.ok(entries.length > 0, `${skill} is empty`);
      for (const entry of entries) {
        assert.deepEqual(Object.keys(entry).sort(), ['description', 'level', 'type']);
        assert.ok(Number.isInteger(entry.level) && entry.level >= 1 && entry.level <= 99);
        assert.ok(entry.description.length > 0);
        assert.ok((SKILL_UNLOCK_TYPES as readonly string[]).includes(entry.type), `${skill}: bad type ${entry.type}`);
      }
      const levels = entries.map((e) => e.level);
      assert.deepEqual(levels, [...levels].sort((a, b) => a - b), `${skill} is not sorted`);
    }
    assert.deepEqual(body.woodcutting[0], { level: 1, description: 'Chop trees for logs', type: 'activity' });
  });

  it('sends a cache header and answers 304 to a matching If-None-Match', async () => {
    const first = await rawRequest(server.url, '/api/data/skill-unlocks');
    assert.match(String(first.headers['cache-control']), /max-age=300/);
    const again = await rawRequest(server.url, '/api/data/skill-unlocks', { headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.status, 304);
  });
});

describe('skill unlock helpers', () => {
  it('sorts by level and keeps file order for equal levels', () => {
    const sorted = sortSkillUnlocks({
      cooking: [
        { level: 25, description: 'c', type: 'activity' },
        { level: 1, description: 'a', type: 'activity' },
        { level: 25, description: 'd', type: 'item' },
        { level: 15, description: 'b', type: 'activity' },
      ],
    });
    assert.deepEqual(sorted.cooking.map((e) => e.description), ['a', 'b', 'c', 'd']);
    assert.deepEqual(sorted.attack, []);
    assert.equal(Object.keys(sorted).length, 17);
  });

  it('the router sorts whatever it is given', async () => {
    const unsorted = { ...emptySkillUnlocks(), prayer: [{ level: 40, description: 'late', type: 'ability' as const }, { level: 1, description: 'early', type: 'ability' as const }] };
    const app = express();
    app.use(createSkillUnlocksRouter(unsorted));
    const running = await listen(app);
    try {
      const body = JSON.parse((await rawRequest(running.url, '/api/data/skill-unlocks')).body.toString('utf8'));
      assert.deepEqual(body.prayer.map((e: { level: number }) => e.level), [1, 40]);
      assert.equal(Object.keys(body).length, 17);
    } finally {
      await running.close();
    }
  });

  it('reads unlocks from raw manifest files, empty when the file is missing or broken', async () => {
    const files = toManifestFiles(await readManifestDir(BUNDLED_MANIFESTS));
    assert.ok(skillUnlocksFromManifestFiles(files).attack.length > 0);
    assert.deepEqual(skillUnlocksFromManifestFiles(new Map()), emptySkillUnlocks());
    assert.deepEqual(skillUnlocksFromManifestFiles(new Map([['skill-unlocks.json', { body: '<<<<<<<' }]])), emptySkillUnlocks());
  });
});
