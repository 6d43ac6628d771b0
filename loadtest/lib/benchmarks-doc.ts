/**
 * docs/BENCHMARKS.md is written by several tools; each owns a section between `<!-- name:start -->` and
 * `<!-- name:end -->` markers, which `npm run bench` keeps when it redraws the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server-process.ts';

export const BENCHMARKS_FILE = path.join(ROOT, 'docs/BENCHMARKS.md');

export function sectionMarkers(name: string): { start: string; end: string } {
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** Replaces the section (its markdown includes both markers), or appends it when the file has none yet. */
export function writeSection(name: string, markdown: string): void {
  const { start: startMarker, end: endMarker } = sectionMarkers(name);
  const current = fs.existsSync(BENCHMARKS_FILE) ? fs.readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(startMarker);
  const end = current.indexOf(endMarker);
  fs.writeFileSync(BENCHMARKS_FILE, start >= 0 && end > start
    ? current.slice(0, start) + markdown + current.slice(end + endMarker.length)
    : `${current.trimEnd()}\n\n${markdown}\n`);
}

/** The section as it stands in the file, markers included, or '' when there is none. */
export function readSection(name: string): string {
  const { start: startMarker, end: endMarker } = sectionMarkers(name);
  const text = fs.existsSync(BENCHMARKS_FILE) ? fs.readFileSync(BENCHMARKS_FILE, 'utf8') : '';
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  return start >= 0 && end > start ? text.slice(start, end + endMarker.length) : '';
}
