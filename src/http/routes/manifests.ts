import { Router, type Request, type Response } from 'express';
import { contentEtag } from '../../manifests/manifest-file.ts';
import { sendProblem } from '../problem.ts';

export const MANIFEST_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

export interface ServableManifest {
  body: Buffer | string;
  /** Strong entity tag; computed from the body when absent. */
  etag?: string;
}

/**
 * GET/HEAD /manifests/{file} (subfolders too, e.g. /manifests/items/food.json), served only from the
 * in-memory map given here, so no request can reach the file system. Unknown names, malformed encodings
 * and traversal attempts get a 404 problem document.
 */
export function createManifestsRouter(files: ReadonlyMap<string, ServableManifest>): Router {
  const served = new Map(
    [...files].map(([path, file]) => {
      const body = typeof file.body === 'string' ? Buffer.from(file.body, 'utf8') : file.body;
      return [path, { body, etag: file.etag ?? contentEtag(body) }] as const;
    }),
  );
  const router = Router();
  router.use('/manifests', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = manifestPathOf(req);
    const file = path === null ? undefined : served.get(path);
    if (!file) return sendNotFound(res);
    res.set({ 'Cache-Control': MANIFEST_CACHE_CONTROL, ETag: file.etag });
    if (etagMatches(req.get('if-none-match'), file.etag)) return void res.status(304).end();
    res.status(200).set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(file.body.length) });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  return router;
}

/** The requested manifest path, decoded once; null for anything that is not a plain relative path. */
function manifestPathOf(req: Request): string | null {
  const raw = req.path.replace(/^\//, '');
  const segments: string[] = [];
  for (const part of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0%]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

function sendNotFound(res: Response): void {
  sendProblem(res, 404, 'NOT_FOUND', 'No such manifest.');
}
