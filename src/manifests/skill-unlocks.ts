import { parseManifest } from './parse-manifest.ts';
import type { SkillUnlock, SkillUnlocksFile } from './schemas/skill-unlocks.ts';
import { SKILL_NAMES, type SkillName } from './skills.ts';

/** Every skill → its unlocks sorted by level (ties keep file order). */
export type SkillUnlocks = Readonly<Record<SkillName, readonly SkillUnlock[]>>;

export function sortSkillUnlocks(file: Partial<SkillUnlocksFile> | undefined): SkillUnlocks {
  const result = {} as Record<SkillName, SkillUnlock[]>;
  for (const skill of SKILL_NAMES) {
    const entries = file?.[skill] ?? [];
    result[skill] = entries
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => a.entry.level - b.entry.level || a.index - b.index)
      .map(({ entry }) => ({ level: entry.level, description: entry.description, type: entry.type }));
  }
  return result;
}

/** All 17 skills with no unlocks (for a server started without manifests). */
export function emptySkillUnlocks(): SkillUnlocks {
  return sortSkillUnlocks(undefined);
}

/**
 * Skill unlocks from the raw skill-unlocks.json (for a server started with SKIP_MANIFESTS, which has no GameData):
 * all skills empty when the file is absent or invalid.
 */
export function skillUnlocksFromManifestFiles(files: ReadonlyMap<string, { body: Buffer | string }>): SkillUnlocks {
  const file = files.get('skill-unlocks.json');
  if (!file) return emptySkillUnlocks();
  try {
    return sortSkillUnlocks(parseManifest('skill-unlocks.json', file.body));
  } catch {
    return emptySkillUnlocks();
  }
}
