/**
 * Environment → typed, frozen configuration. Parsed once at startup (step 1).
 * Every bad value is collected and reported together, naming the variable.
 */
import path from 'node:path';

export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  readonly worldDir: string;
  readonly databaseUrl: string | undefined;
  /** Directory of the embedded PGlite database; `memory://` keeps it in memory. */
  readonly pgliteDataDir: string;
  readonly useLocalPostgres: boolean;
  readonly jwtSecret: string | undefined;
  readonly adminCode: string | undefined;
  readonly publicIdpAppId: string | undefined;
  readonly idpAppSecret: string | undefined;
  readonly publicCdnUrl: string;
  readonly publicApiUrl: string;
  readonly publicWsUrl: string;
  readonly publicAppUrl: string | undefined;
  readonly clientUrl: string | undefined;
  readonly agentUrl: string | undefined;
  readonly agentApiUrl: string | undefined;
  readonly skipManifests: boolean;
  readonly skipAssets: boolean;
  readonly ci: boolean;
  readonly voiceApiKey: string | undefined;
  readonly voiceApiSecret: string | undefined;
  readonly voiceUrl: string | undefined;
  readonly saveIntervalSeconds: number;
  readonly disableRateLimit: boolean;
  readonly commitHash: string;
  readonly redisUrl: string | undefined;
  readonly clientBuildDir: string;
  readonly logLevel: string;
}

export interface LoadedConfig {
  config: Config;
  /** Non-fatal remarks (e.g. a development-only switch set in production). */
  warnings: string[];
}

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

/** Variables that must be set when NODE_ENV=production. */
export const REQUIRED_IN_PRODUCTION = [
  'DATABASE_URL',
  'JWT_SECRET',
  'ADMIN_CODE',
  'PUBLIC_IDP_APP_ID',
  'IDP_APP_SECRET',
] as const;

/** Values that must never reach a client or a log line. */
export function secretValues(config: Config): string[] {
  return [config.jwtSecret, config.adminCode, config.idpAppSecret, config.voiceApiSecret, config.voiceApiKey]
    .filter((v): v is string => typeof v === 'string' && v.length > 0);
}

type Env = Record<string, string | undefined>;

class EnvReader {
  readonly problems: string[] = [];
  private readonly env: Env;

  constructor(env: Env) {
    this.env = env;
  }

  string(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  }

  boolean(name: string): boolean {
    const raw = this.string(name);
    if (raw === undefined) return false;
    const lowered = raw.toLowerCase();
    if (['true', '1', 'yes'].includes(lowered)) return true;
    if (['false', '0', 'no'].includes(lowered)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return false;
  }

  url(name: string, fallback: string, protocols: string[]): string;
  url(name: string, fallback: undefined, protocols: string[]): string | undefined;
  url(name: string, fallback: string | undefined, protocols: string[]): string | undefined {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${raw}")`);
      return fallback;
    }
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}

const HTTP = ['http:', 'https:'];
const WS = ['ws:', 'wss:'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, projectRoot: string = process.cwd()): LoadedConfig {
  const read = new EnvReader(env);
  const warnings: string[] = [];

  const nodeEnv = read.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const isProduction = nodeEnv === 'production';
  const port = read.integer('PORT', 5555, 0, 65535);

  const developmentOnly = (name: string): boolean => {
    const value = read.boolean(name);
    if (value && isProduction) {
      warnings.push(`${name}=true is honoured in development only; ignored in production`);
      return false;
    }
    return value;
  };

  const databaseUrl = read.url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const pgliteDir = read.string('PGLITE_DATA_DIR') ?? 'data/pglite';

  const config: Config = {
    port,
    host: read.string('HOST') ?? '0.0.0.0',
    nodeEnv,
    isProduction,
    worldDir: path.resolve(projectRoot, read.string('WORLD') ?? 'world'),
    databaseUrl,
    pgliteDataDir: pgliteDir.startsWith('memory://') ? pgliteDir : path.resolve(projectRoot, pgliteDir),
    useLocalPostgres: developmentOnly('USE_LOCAL_POSTGRES'),
    jwtSecret: read.string('JWT_SECRET'),
    adminCode: read.string('ADMIN_CODE'),
    publicIdpAppId: read.string('PUBLIC_IDP_APP_ID'),
    idpAppSecret: read.string('IDP_APP_SECRET'),
    publicCdnUrl: read.url('PUBLIC_CDN_URL', 'http://localhost:8080', HTTP),
    publicApiUrl: read.url('PUBLIC_API_URL', 'http://localhost:5555', HTTP),
    publicWsUrl: read.url('PUBLIC_WS_URL', 'ws://localhost:5555/ws', WS),
    publicAppUrl: read.url('PUBLIC_APP_URL', undefined, HTTP),
    clientUrl: read.url('CLIENT_URL', undefined, HTTP),
    agentUrl: read.url('AGENT_URL', undefined, HTTP),
    agentApiUrl: read.url('AGENT_API_URL', undefined, HTTP),
    skipManifests: read.boolean('SKIP_MANIFESTS'),
    skipAssets: read.boolean('SKIP_ASSETS'),
    ci: read.boolean('CI'),
    voiceApiKey: read.string('VOICE_API_KEY'),
    voiceApiSecret: read.string('VOICE_API_SECRET'),
    voiceUrl: read.url('VOICE_URL', undefined, [...WS, ...HTTP]),
    saveIntervalSeconds: read.integer('SAVE_INTERVAL', 60, 1, 86_400),
    disableRateLimit: developmentOnly('DISABLE_RATE_LIMIT'),
    commitHash: read.string('COMMIT_HASH') ?? 'unknown',
    redisUrl: read.url('REDIS_URL', undefined, ['redis:', 'rediss:']),
    clientBuildDir: path.resolve(projectRoot, read.string('CLIENT_BUILD_DIR') ?? 'client/dist'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'warn' : 'info'),
  };

  if (isProduction) {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => read.string(name) === undefined);
    if (missing.length > 0) {
      read.problems.push(`NODE_ENV=production requires these variables, which are missing: ${missing.join(', ')}`);
    }
  }

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return { config: Object.freeze(config), warnings };
}
