/**
 * The play page (docs/frontend.md): the game in a browser tab, served at `/` when no client build is present
 * (outside production always; in production only with PLAY_PAGE=true). Its files are under `/web/play/` and the
 * modules it shares with the world map under `/web/shared/` (src/web/). Mounted where the client build would be,
 * after every server route, so it never shadows one; any other path falls through to the 404 handler.
 */
import { Router } from 'express';
import type { Config } from '../config.ts';
import { sendWebFile, webFile } from './web-files.ts';

export const PLAY_PAGE_PATH = '/';
const FILES = /^\/web\/(play|shared)\/(.+)$/;

/** Whether the play page is served when there is no client build. */
export function playPageEnabled(config: Pick<Config, 'isProduction' | 'playPage'>): boolean {
  return !config.isProduction || config.playPage;
}

export function createPlayPage(): Router {
  const router = Router();
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const match = FILES.exec(req.path);
    const file = req.path === PLAY_PAGE_PATH ? webFile('play', 'index.html') : match ? webFile(match[1] as 'play' | 'shared', match[2]) : undefined;
    if (!file) return next();
    // Revalidated on every load (ETag): a changed module is never served stale.
    sendWebFile(res, file, 'no-cache');
  });
  return router;
}
