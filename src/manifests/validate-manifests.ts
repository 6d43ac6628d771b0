import { crossReferenceProblems } from './cross-references.ts';
import { buildGameData, type GameData } from './game-data.ts';
import { ManifestError } from './manifest-error.ts';
import { MANIFEST_PATHS, missingRequiredManifests, type ParsedManifests } from './manifest-registry.ts';
import { parseManifest } from './parse-manifest.ts';

/**
 * Validates a set of manifest bodies (path under /manifests/ → content): the required files are present,
 * every known file parses and matches its schema, and the cross-references hold.
 * Throws a ManifestError (naming the file when one file is at fault); returns the typed game data.
 */
export function validateManifests(bodies: ReadonlyMap<string, Buffer | string>): GameData {
  const missing = missingRequiredManifests((path) => bodies.has(path));
  if (missing.length > 0) throw new ManifestError(null, [`required manifests are missing: ${missing.join(', ')}`]);

  const parsed: Record<string, unknown> = {};
  for (const path of MANIFEST_PATHS) {
    const body = bodies.get(path);
    if (body !== undefined) parsed[path] = parseManifest(path, body);
  }
  const { data, problems } = buildGameData(parsed as ParsedManifests);
  problems.push(...crossReferenceProblems(data));
  if (problems.length > 0) {
    const files = new Set(problems.map((p) => p.slice(0, p.indexOf(':'))));
    if (files.size !== 1) throw new ManifestError(null, problems);
    const [file] = files;
    throw new ManifestError(file, problems.map((p) => p.slice(file.length + 1).trim()));
  }
  return data;
}
