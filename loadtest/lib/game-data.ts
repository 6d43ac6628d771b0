/** The bundled world's game data, loaded the way the server validates it (for bots and seeding). */
import fs from 'node:fs';
import path from 'node:path';
import type { GameData } from '../../src/manifests/game-data.ts';
import { validateManifests } from '../../src/manifests/validate-manifests.ts';

export function loadBundledWorld(root = path.resolve(import.meta.dirname, '../../world/assets/manifests')): GameData {
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json') && !entry.name.startsWith('.')) files.set(path.relative(root, full), fs.readFileSync(full));
    }
  };
  walk(root);
  return validateManifests(files as never);
}
