import type { z } from 'zod';
import { ManifestError } from './manifest-error.ts';
import { MANIFEST_SCHEMAS, type ManifestContent, type ManifestPath } from './manifest-registry.ts';

const MAX_REPORTED_ISSUES = 10;
const CONFLICT_MARKER = /^(<{7}|={7}|>{7})(\s|$)/m;

/** Parses one manifest body against its schema; throws a ManifestError naming the file. */
export function parseManifest<P extends ManifestPath>(path: P, body: Buffer | string): ManifestContent<P> {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(path, [describeJsonError(text, error)]);
  }
  const result = MANIFEST_SCHEMAS[path].safeParse(json);
  if (!result.success) throw new ManifestError(path, formatIssues(result.error.issues));
  return result.data as ManifestContent<P>;
}

/** Like parseManifest but returns the problem instead of throwing. */
export function checkManifest(path: ManifestPath, body: Buffer | string): { ok: true } | { ok: false; error: ManifestError } {
  try {
    parseManifest(path, body);
    return { ok: true };
  } catch (error) {
    if (error instanceof ManifestError) return { ok: false, error };
    throw error;
  }
}

function describeJsonError(text: string, error: unknown): string {
  const marker = CONFLICT_MARKER.exec(text);
  if (marker) {
    const line = text.slice(0, marker.index).split('\n').length;
    return `contains merge-conflict markers (line ${line}: '${marker[1]}'); resolve the conflict`;
  }
  return `is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${where}: ${issue.message}`;
  });
  if (issues.length > MAX_REPORTED_ISSUES) lines.push(`… and ${issues.length - MAX_REPORTED_ISSUES} more problems`);
  return lines;
}
