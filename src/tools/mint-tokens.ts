/**
 * `npm run mint-tokens -- --count N [--ttl SECONDS] [--out FILE]`: tokens for a load test, so that bots need no
 * login (docs/loadtest.md). Makes N temporary accounts (role player) in the server's database and signs one
 * server token for each with JWT_SECRET (in development without it, the secret the server keeps), exactly as the
 * server would; writes them one per line (stdout, or FILE with mode 0600). Accounts and tokens expire after the TTL
 * (default JWT_TTL_SECONDS); the server's cleanup then deletes the accounts and the characters the bots made. Needs
 * the server's environment: JWT_SECRET (or development's kept secret; JWT_ISSUER/JWT_AUDIENCE if set) and
 * DATABASE_URL or PGLITE_DATA_DIR; the embedded database only while the server is stopped.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { TokenService } from '../auth/tokens.ts';
import { createLoadTestAccounts } from '../db/loadtest-accounts.ts';
import { session, type Transaction } from '../db/transaction.ts';
import { OperatorError, operatorConfig, operatorDatabase, operatorTokens, runOperatorCommand } from './operator-cli.ts';

export const MAX_TOKENS = 10_000;

export interface MintedToken {
  accountId: string;
  token: string;
  expiresAt: Date;
}

/** Creates `count` load-test accounts and signs a player token for each, valid for `ttlSeconds`. */
export async function mintLoadTestTokens(options: {
  em: Transaction; tokens: TokenService; count: number; ttlSeconds: number; now?: Date;
}): Promise<MintedToken[]> {
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + options.ttlSeconds * 1000);
  const ids = await createLoadTestAccounts(options.em, options.count, expiresAt, now);
  return ids.map((accountId) => {
    const issued = options.tokens.sign({ accountId, roles: ['player'], scope: 'player' }, { ttlSeconds: options.ttlSeconds });
    return { accountId, token: issued.token, expiresAt: issued.expiresAt };
  });
}

function integerOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new OperatorError(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { count: { type: 'string' }, ttl: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help || values.count === undefined) {
    process.stderr.write('usage: npm run mint-tokens -- --count N [--ttl SECONDS] [--out FILE]\n');
    if (!values.help) process.exitCode = 1;
    return;
  }
  const config = operatorConfig();
  const count = integerOption('count', values.count, 1, 1, MAX_TOKENS);
  const ttlSeconds = integerOption('ttl', values.ttl, config.jwtTtlSeconds, 60, 7 * 86_400);
  const tokens = operatorTokens(config);
  const db = await operatorDatabase(config);
  let minted: MintedToken[];
  try {
    minted = await mintLoadTestTokens({ em: session(db), tokens, count, ttlSeconds });
  } finally {
    await db.close();
  }
  const text = minted.map((entry) => entry.token).join('\n') + '\n';
  if (values.out !== undefined) fs.writeFileSync(values.out, text, { mode: 0o600 });
  else process.stdout.write(text);
  process.stderr.write(`${minted.length} load-test accounts and tokens, valid until ${minted[0].expiresAt.toISOString()}`
    + `${values.out !== undefined ? `, written to ${values.out}` : ''}\n`);
}

if (import.meta.filename === process.argv[1]) await runOperatorCommand(main);
