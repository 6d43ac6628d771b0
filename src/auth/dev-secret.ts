/**
 * Development's signing secret (docs/auth.md, "The signing secret"): without JWT_SECRET a development server
 * generates one secret and keeps it in JWT_DEV_SECRET_FILE (data/jwt-dev-secret, mode 0600), so the tokens a
 * developer's client, agent or admin holds outlive a restart — `npm run dev` restarts on every save — and the
 * operator commands (`npm run admin`, `npm run mint-tokens`) sign tokens the server accepts. Production never
 * reads or writes this file: it requires JWT_SECRET.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 32 bytes of randomness, as production's minimum for JWT_SECRET (config.ts MIN_JWT_SECRET_BYTES). */
const SECRET_BYTES = 32;

export interface KeptSecret {
  secret: string;
  /** True when this call generated the secret (the file did not exist). */
  created: boolean;
}

/** The secret kept in `file`, generated (and the directory made) when the file does not exist yet. */
export function keptDevelopmentSecret(file: string): KeptSecret {
  const existing = readSecret(file);
  if (existing !== undefined) return { secret: existing, created: false };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  // Written whole under a private name, then linked into place: the link fails if the file exists, so two
  // processes starting at once (the server and an operator command) both end with the first one's secret, and
  // neither ever reads a half-written file.
  const pending = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(pending, `${secret}\n`, { mode: 0o600 });
  try {
    fs.linkSync(pending, file);
    return { secret, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { secret: readSecret(file)!, created: false };
  } finally {
    fs.rmSync(pending, { force: true });
  }
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (secret.length === 0) throw new Error(`${file} (JWT_DEV_SECRET_FILE) is empty: delete it and a new secret is made`);
  // A copy made readable by others (an archive, a careless chmod) is put back to owner-only.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return secret;
}
