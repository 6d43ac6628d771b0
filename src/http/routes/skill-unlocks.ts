import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { SkillUnlocks } from '../../manifests/skill-unlocks.ts';
import { SKILL_NAMES } from '../../manifests/skills.ts';

/**
 * GET /api/data/skill-unlocks (public): every one of the 17 skills → its unlocks sorted by level.
 * The body is serialised once, when the router is created.
 */
export function createSkillUnlocksRouter(unlocks: SkillUnlocks): Router {
  const ordered = Object.fromEntries(SKILL_NAMES.map((skill) => [skill, [...(unlocks[skill] ?? [])].sort((a, b) => a.level - b.level)]));
  const body = Buffer.from(JSON.stringify(ordered), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const router = Router();
  router.get('/api/data/skill-unlocks', (req, res) => {
    res.set({ 'Cache-Control': 'public, max-age=300, must-revalidate', ETag: etag });
    if (req.fresh) return void res.status(304).end();
    res.status(200).set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return router;
}
