/**
 * Environment → typed, frozen configuration. Parsed once at startup (step 1).
 * Every bad value is collected and reported together, naming the variable.
 *
 * Each variable is declared once, by area, in src/config/variables.ts (name, kind, bounds, default, meaning, the
 * field it fills); the Config type is derived from those declarations, loadConfig reads them, and the README's
 * table is generated from them (`npm run docs:config`). This file adds what concerns several variables at once.
 */
import { EnvReader, type Env } from './config/env-reader.ts';
import type { NodeEnv, ReadContext, ValuesOf } from './config/declare.ts';
import { VARIABLES } from './config/variables.ts';

export type { NodeEnv } from './config/declare.ts';
export { TEST_RATE_LIMIT } from './config/variables.ts';

export interface Config extends ValuesOf<typeof VARIABLES> {
  readonly isProduction: boolean;
  /** True when IDP tokens can be verified (IDP_PUBLIC_KEY or IDP_JWKS_URL); false means anonymous mode. */
  readonly idpConfigured: boolean;
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

const declarations = Object.entries(VARIABLES);

/** Variables that must be set when NODE_ENV=production (declared `requiredInProduction`). */
export const REQUIRED_IN_PRODUCTION: readonly string[] = Object.freeze(
  declarations.filter(([, variable]) => variable.requiredInProduction).map(([, variable]) => variable.name));

/**
 * The addresses /env.js hands to clients (declared `publicAddress`). In production each must be set and must not be a
 * loopback address: the development defaults (http://localhost:5555, ws://localhost:5555/ws, http://localhost:8080)
 * would send every player's browser to its own machine without a word. PUBLIC_APP_URL must not be loopback when set.
 */
export const PUBLIC_ADDRESS_VARIABLES: readonly string[] = Object.freeze(
  declarations.filter(([, variable]) => variable.publicAddress).map(([, variable]) => variable.name));

/** localhost (and *.localhost), 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 / :: — nowhere a client can reach. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host)
    || host === '::1' || host === '0.0.0.0' || host === '::' || /^::ffff:(127\.|7f)/.test(host);
}

/** Voice chat (src/http/routes/voice.ts) is configured by all three or none. */
export const VOICE_VARIABLES = ['VOICE_API_KEY', 'VOICE_API_SECRET', 'VOICE_URL'] as const;

const SECRET_FIELDS = declarations.filter(([, variable]) => variable.secret).map(([field]) => field as keyof Config);

/** Values that must never reach a client or a log line (the variables declared `secret`). */
export function secretValues(config: Config): string[] {
  return SECRET_FIELDS.map((field) => config[field])
    .filter((v): v is string => typeof v === 'string' && v.length > 0);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Production's minimum length of JWT_SECRET, in bytes (UTF-8): the HS256 key should hold as many bytes as the hash's
 * output (RFC 7518 §3.2), 256 bits. `openssl rand -base64 48` makes a 64-character one.
 */
export const MIN_JWT_SECRET_BYTES = 32;

export function loadConfig(env: Env = process.env, projectRoot: string = process.cwd()): LoadedConfig {
  const read = new EnvReader(env);
  const warnings: string[] = [];

  // NODE_ENV first: development-only switches and test-mode defaults depend on it.
  const nodeEnv: NodeEnv = VARIABLES.nodeEnv.read(read, { nodeEnv: 'development', projectRoot, warnings });
  const isProduction = nodeEnv === 'production';
  const context: ReadContext = { nodeEnv, projectRoot, warnings };
  const values: Record<string, unknown> = {};
  for (const [field, variable] of declarations) values[field] = field === 'nodeEnv' ? nodeEnv : variable.read(read, context);
  const declared = values as ValuesOf<typeof VARIABLES>;
  const { idpPublicKey, idpJwksUrl } = declared;
  const config: Config = {
    ...declared,
    isProduction,
    idpConfigured: idpPublicKey !== undefined || idpJwksUrl !== undefined,
  };

  if (idpPublicKey !== undefined && idpJwksUrl !== undefined) {
    read.problems.push('IDP_PUBLIC_KEY and IDP_JWKS_URL are exclusive: set one of them');
  }
  if (idpJwksUrl !== undefined && new URL(idpJwksUrl).protocol === 'http:' && !LOOPBACK_HOSTS.has(new URL(idpJwksUrl).hostname)) {
    read.problems.push(`IDP_JWKS_URL must use https (http is accepted for localhost only; got "${idpJwksUrl}")`);
  }
  if (config.idpConfigured && config.publicIdpAppId === undefined) {
    read.problems.push('PUBLIC_IDP_APP_ID is required when IDP_PUBLIC_KEY or IDP_JWKS_URL is set (it is the expected token audience)');
  }
  const voiceMissing = VOICE_VARIABLES.filter((name) => read.string(name) === undefined);
  if (voiceMissing.length > 0 && voiceMissing.length < VOICE_VARIABLES.length) {
    read.problems.push(`voice chat needs ${VOICE_VARIABLES.join(', ')} together (or none of them); missing: ${voiceMissing.join(', ')}`);
  }

  const secretBytes = config.jwtSecret === undefined ? undefined : Buffer.byteLength(config.jwtSecret, 'utf8');
  if (secretBytes !== undefined && secretBytes < MIN_JWT_SECRET_BYTES) {
    if (isProduction) {
      read.problems.push(`JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes in production (it is the HS256 signing key; `
        + `got ${secretBytes}): \`openssl rand -base64 48\` makes one`);
    } else {
      warnings.push(`JWT_SECRET is shorter than ${MIN_JWT_SECRET_BYTES} bytes: production refuses such a secret`);
    }
  }

  if (isProduction) {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => read.string(name) === undefined);
    if (missing.length > 0) {
      read.problems.push(`NODE_ENV=production requires these variables, which are missing: ${missing.join(', ')}`);
    }
    const publicUrls: Record<string, string | undefined> = {
      PUBLIC_API_URL: config.publicApiUrl, PUBLIC_WS_URL: config.publicWsUrl, PUBLIC_CDN_URL: config.publicCdnUrl, PUBLIC_APP_URL: config.publicAppUrl,
    };
    const unusable = [...PUBLIC_ADDRESS_VARIABLES, 'PUBLIC_APP_URL'].flatMap((name) => {
      const raw = read.string(name);
      if (raw === undefined) return name === 'PUBLIC_APP_URL' ? [] : [`${name} (unset, so ${publicUrls[name]})`];
      if (publicUrls[name] !== raw.replace(/\/+$/, '')) return []; // invalid: reported above
      return isLoopbackHost(new URL(raw).hostname) ? [`${name} (${raw})`] : [];
    });
    if (unusable.length > 0) {
      read.problems.push('NODE_ENV=production needs the public addresses /env.js gives clients, reachable from their machines; '
        + `unset or loopback: ${unusable.join(', ')}`);
    }
  }

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return { config: Object.freeze(config), warnings };
}
