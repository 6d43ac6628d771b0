/**
 * The client build (CLIENT_BUILD_DIR, a Vite-style `dist/` with index.html), served from the game server's port
 * whenever that directory holds an index.html at startup (docs/frontend.md). Mounted after every server route and
 * before the 404 handler, so it can never shadow one.
 *
 * - Content-hashed files (anything under `assets/`, or a name carrying a hex hash such as `main.3f2a1b9c.js`) are
 *   cached for a year as immutable; every other file, index.html included, is `no-cache` (revalidated by ETag).
 * - A GET or HEAD for a page route (last path segment without a file extension) that matches no file gets
 *   index.html, so the client's router can handle deep links.
 * - Server paths (/api, /ws, /manifests, /health, /status, /env.js, /metrics, /colyseus, /playground, /operator, /matchmake)
 *   never get a file or the fallback, and neither do missing files with an extension: both reach the 404 handler
 *   and answer a problem document like every other unknown path.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';

/** Paths owned by the server: never answered from the client build. Case-insensitive, as Express routing is. */
export const SERVER_PATHS = /^\/(?:api|ws|manifests|health|status|env\.js|metrics|colyseus|playground|operator|matchmake)(?:\/|$)/i;

const HASHED = /^assets\/|[.-][0-9a-f]{8,}\.[A-Za-z0-9]+$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Cache-Control for a file of the build, by its path relative to the build directory (forward slashes). */
export function cacheControlFor(relativePath: string): string {
  return HASHED.test(relativePath) ? IMMUTABLE : REVALIDATE;
}

/** Whether `dir` holds a client build (an index.html). */
export function clientBuildPresent(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

function isServerPath(rawPath: string): boolean {
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // a malformed escape is not a server path; the static handler refuses it
  }
  return SERVER_PATHS.test(rawPath.replace(/\/{2,}/g, '/')) || SERVER_PATHS.test(decoded.replace(/\/{2,}/g, '/'));
}

function isPageRoute(rawPath: string): boolean {
  const last = rawPath.slice(rawPath.lastIndexOf('/') + 1);
  return !last.includes('.');
}

export function createFrontend(dir: string): Router {
  const root = path.resolve(dir);
  const index = path.join(root, 'index.html');
  const router = Router();
  const files = express.static(root, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', cacheControlFor(path.relative(root, file).split(path.sep).join('/')));
    },
  });
  const serveIndex = (req: Request, res: Response, next: (error?: unknown) => void) => {
    res.set('Cache-Control', REVALIDATE);
    res.sendFile(index, (error?: Error & { status?: number }) => {
      if (!error || res.headersSent) return;
      if (error.status === 404) next();
      else next(error);
    });
  };

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isServerPath(req.path)) return next();
    files(req, res, (error?: unknown) => {
      if (error) next(error);
      else if (isPageRoute(req.path)) serveIndex(req, res, next);
      else next();
    });
  });
  return router;
}
