/**
 * The browser pages' files (src/web/, docs/frontend.md): plain HTML, CSS, JavaScript modules (and an SVG icon) served
 * as they are, with no build step. One Content-Security-Policy for every page: its own scripts, styles and connections
 * (fetch and the /ws socket) only, never framed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';

export const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));

/** The folders of src/web/ a page may load from. */
export type WebFolder = 'play' | 'shared' | 'world-map';

export const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Lower-case names and folders, a page's kinds of file: no dot-segments, no encoded separators. */
const FILE = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*\.(?:js|css|html|svg)$/;

/** The file at `relative` (a URL path below the folder) when it is one of the folder's page files. */
export function webFile(folder: WebFolder, relative: string): string | undefined {
  if (!FILE.test(relative)) return undefined;
  const file = path.join(WEB_DIR, folder, relative);
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Sends a page file with the pages' security headers. */
export function sendWebFile(res: Response, file: string, cacheControl: string): void {
  res.set({ 'Content-Security-Policy': PAGE_CSP, 'X-Frame-Options': 'DENY', 'Cache-Control': cacheControl });
  res.sendFile(file);
}
