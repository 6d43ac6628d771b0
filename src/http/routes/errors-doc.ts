/**
 * `GET /docs/errors.md`: the errors reference, where every problem document's `type` points
 * (`/docs/errors.md#not-found`, src/http/problem.ts). The page is docs/errors.md itself, as text in a `<pre>` (no
 * Markdown renderer: the tables read well as they are), with inline code shown as `<code>` and an anchor named by
 * each code's `type` fragment opening the first table row whose first cell names that code, so a browser following
 * a `type` lands on the code's row. Public, like the problem documents that link to it; built once at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import type { Logger } from '../../logger.ts';
import { ERRORS_DOC_PATH, errorAnchor } from '../problem.ts';

/** docs/errors.md of this checkout (the Docker image copies it: Dockerfile). */
const ERRORS_DOC_FILE = path.resolve(import.meta.dirname, '../../../docs/errors.md');

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page for a Markdown text: each line escaped, inline code as `<code>`, each code's first row anchored. */
export function errorsPage(markdown: string): string {
  const anchored = new Set<string>();
  const lines = markdown.split('\n').map((line) => {
    const html = escapeHtml(line).replace(/`([^`]+)`/g, '<code>$1</code>');
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    const anchors = [...firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, code]) => errorAnchor(code)).filter((id) => !anchored.has(id));
    for (const id of anchors) anchored.add(id);
    return anchors.map((id) => `<span id="${id}"></span>`).join('') + html;
  });
  return '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Errors — game server</title></head>\n'
    + `<body><pre>\n${lines.join('\n')}\n</pre></body></html>\n`;
}

export function createErrorsDocRouter(logger: Logger, file = ERRORS_DOC_FILE): Router {
  const router = Router();
  let page: string | undefined;
  try {
    page = errorsPage(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    logger.warn({ err: error, file }, `the errors reference is missing: ${ERRORS_DOC_PATH} answers 404`);
  }
  if (page !== undefined) {
    const body = page;
    router.get(ERRORS_DOC_PATH, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('text/html; charset=utf-8').send(body);
    });
  }
  return router;
}
