/**
 * What the operator commands (`npm run admin`, `npm run mint-tokens`) share: the server's configuration from the
 * same environment, the same database, the same token signer, and plain messages on failure (exit code 1).
 */
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DatabaseStartError, openDatabase, type Database } from '../db/database.ts';
import { serverSigningSecret, TokenService } from '../auth/tokens.ts';

export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

export function operatorConfig(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env).config;
  } catch (error) {
    if (error instanceof ConfigError) throw new OperatorError(error.message);
    throw error;
  }
}

/** The server's database (DATABASE_URL, or the embedded one in PGLITE_DATA_DIR, which one process opens at a time). */
export async function operatorDatabase(config: Config): Promise<Database> {
  try {
    return await openDatabase({
      databaseUrl: config.databaseUrl, pgliteDataDir: config.pgliteDataDir, poolSize: 2,
      whenMissing: config.isProduction && !config.databaseInit ? 'refuse' : 'create',
    });
  } catch (error) {
    if (error instanceof DatabaseStartError) throw new OperatorError(error.message);
    if (config.databaseUrl) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new OperatorError(`could not open the embedded database in ${config.pgliteDataDir} (${message}). `
      + 'It can be opened by one process at a time: stop the server first, or use DATABASE_URL.');
  }
}

/**
 * The signer of the server's tokens: JWT_SECRET, or in development without it the secret the server keeps in
 * JWT_DEV_SECRET_FILE (made here if the server never ran). Otherwise the server would not accept what is signed here.
 */
export function operatorTokens(config: Config): TokenService {
  const { secret, source } = serverSigningSecret(config);
  if (source === 'process') {
    throw new OperatorError('JWT_SECRET is not set: set it to the server\'s value (a test-mode server without it signs with a '
      + 'random per-process secret, so no other process can make tokens it accepts)');
  }
  return new TokenService({ secret, issuer: config.jwtIssuer, audience: config.jwtAudience, ttlSeconds: config.jwtTtlSeconds });
}

/** Runs a command's main; an OperatorError becomes one line on stderr and exit code 1. */
export async function runOperatorCommand(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof OperatorError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}
