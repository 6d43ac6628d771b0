/**
 * Environment → typed, frozen configuration. Parsed once at startup (step 1).
 * Every bad value is collected and reported together, naming the variable.
 */
import { createPublicKey } from 'node:crypto';
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
  /** Scale-out (REDIS_URL set): the host[:port] clients reach this process at, returned by matchmaking (PUBLIC_ADDRESS). */
  readonly publicAddress: string | undefined;
  /** Scale-out: the host:port other processes reach this one at, for relaying /ws sockets (INTERNAL_ADDRESS). */
  readonly internalAddress: string | undefined;
  /** Scale-out: prefix of the Colyseus presence and room-listing keys in Redis (CLUSTER_KEY_PREFIX). */
  readonly clusterKeyPrefix: string;
  readonly clientBuildDir: string;
  readonly logLevel: string;
  /** /ws: milliseconds a new connection has to send `authenticate` (default 5 s: an unauthenticated socket is cheap to open). */
  readonly wsAuthTimeoutMs: number;
  /** Area-of-interest radius in tiles: players receive entities within this Chebyshev distance. */
  readonly worldInterestRadius: number;
  /** Bearer token a Prometheus scraper presents at GET /metrics (admins can use their own token). */
  readonly metricsToken: string | undefined;

  // Identity and the edge (docs/auth.md).
  /** Lifetime of the server's access tokens (JWT_TTL_SECONDS). */
  readonly jwtTtlSeconds: number;
  readonly jwtIssuer: string;
  readonly jwtAudience: string;
  /** The identity provider's token-signing public key (PEM, EC P-256 or RSA ≥ 2048). */
  readonly idpPublicKey: string | undefined;
  /** Or the address of the identity provider's JSON Web Key Set. */
  readonly idpJwksUrl: string | undefined;
  /** Expected `iss` of identity-provider tokens; unchecked when unset. */
  readonly idpIssuer: string | undefined;
  /** True when IDP tokens can be verified (IDP_PUBLIC_KEY or IDP_JWKS_URL); false means anonymous mode. */
  readonly idpConfigured: boolean;
  /** How long a temporary (anonymous) identity lives. */
  readonly anonymousTtlSeconds: number;
  /** How often expired temporary identities are deleted. */
  readonly tempUserCleanupSeconds: number;
  /** How often live sessions re-check their rights (revocation, expiry, account, roles); also the roles cache age. */
  readonly sessionCheckSeconds: number;
  /** Production frontend origins; each one's www variant is allowed too. */
  readonly corsFrontendOrigins: readonly string[];
  /** The frontend's static host: its https and http origins and its preview subdomains are allowed. */
  readonly corsStaticHost: string;
  /** The server's own production origin. */
  readonly corsServerOrigin: string;
  /** The server host whose https subdomains are preview deployments of the server. */
  readonly corsServerPreviewHost: string;
  /** Social-frame hosts whose https subdomains may embed the game. */
  readonly corsSocialHosts: readonly string[];
  /** The identity provider's host; its https subdomains are allowed. */
  readonly corsIdpHost: string;
  /** Number of reverse-proxy hops whose X-Forwarded-For entries are trusted (0: none). */
  readonly trustProxy: number;
  readonly rateLimitRestPerMinute: number;
  readonly rateLimitAuthPerMinute: number;
  /** How long an address stays blocked after exceeding a REST or authentication limit. */
  readonly rateLimitBlockSeconds: number;
  /** Prefix of the limiter keys (in Redis when REDIS_URL is set). */
  readonly rateLimitKeyPrefix: string;
  readonly wsMessagesPerSecond: number;
  /** Concurrent WebSocket connections (/ws and SDK room sockets) one address may hold (issue #17). */
  readonly wsMaxConnectionsPerAddress: number;
  /** Of those, /ws connections that have not authenticated yet. */
  readonly wsMaxUnauthenticatedPerAddress: number;
  /** World entries (`world:enter`, SDK joins) one account may make per minute; reconnections are free. */
  readonly worldEntriesPerMinute: number;
  /** Item transactions (moves, bank, shop, equip… — each a database transaction) per account per second. */
  readonly itemTransactionsPerSecond: number;

  // The economy (docs/economy.md).
  /** How long a dropped item is visible to its owner only (GROUND_ITEM_PRIVATE_SECONDS). */
  readonly groundItemPrivateSeconds: number;
  /** How long it is then visible to everyone before it is gone (GROUND_ITEM_PUBLIC_SECONDS). */
  readonly groundItemPublicSeconds: number;
  /** How long the owner can claim a gravestone before its items become public ground items (GRAVESTONE_SECONDS). */
  readonly gravestoneSeconds: number;
  /** How many of the most valuable items a dying player keeps (ITEMS_KEPT_ON_DEATH). */
  readonly itemsKeptOnDeath: number;
  /** Game ticks a home teleport takes to cast (HOME_TELEPORT_CAST_TICKS). */
  readonly homeTeleportCastTicks: number;
  /** Seconds before the next home teleport (HOME_TELEPORT_COOLDOWN_SECONDS). */
  readonly homeTeleportCooldownSeconds: number;

  // REST API and AI agents (docs/api.md).
  /** Lifetime of agent tokens issued by POST /api/agent (AGENT_TOKEN_TTL_SECONDS). */
  readonly agentTokenTtlSeconds: number;
  /** How long a message forwarded to the AI-agent service may take (AGENT_SERVICE_TIMEOUT_MS). */
  readonly agentServiceTimeoutMs: number;

  // Trading (docs/trading.md).
  /** A trade request not answered within this many milliseconds expires (TRADE_REQUEST_TIMEOUT_MS, 30 s). */
  readonly tradeRequestTimeoutMs: number;
  /** An open trade with no action for this long is cancelled (TRADE_IDLE_TIMEOUT_MS, 5 min). */
  readonly tradeIdleTimeoutMs: number;
  /** A repeated request to the same player within this window is refused with RATE_LIMITED (TRADE_REQUEST_COOLDOWN_MS, 3 s). */
  readonly tradeRequestCooldownMs: number;
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

/**
 * The addresses /env.js hands to clients. In production each must be set and must not be a loopback address: the
 * development defaults (http://localhost:5555, ws://localhost:5555/ws, http://localhost:8080) would send every
 * player's browser to its own machine without a word.
 */
export const PUBLIC_ADDRESS_VARIABLES = ['PUBLIC_API_URL', 'PUBLIC_WS_URL', 'PUBLIC_CDN_URL'] as const;

/** localhost (and *.localhost), 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 / :: — nowhere a client can reach. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host)
    || host === '::1' || host === '0.0.0.0' || host === '::' || /^::ffff:(127\.|7f)/.test(host);
}

/** Voice chat (src/http/routes/voice.ts) is configured by all three or none. */
export const VOICE_VARIABLES = ['VOICE_API_KEY', 'VOICE_API_SECRET', 'VOICE_URL'] as const;

/** Values that must never reach a client or a log line. */
export function secretValues(config: Config): string[] {
  return [config.jwtSecret, config.adminCode, config.idpAppSecret, config.voiceApiSecret, config.voiceApiKey, config.metricsToken]
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

  /** A comma-separated list of http(s) origins (scheme, host and optional port; no path). */
  origins(name: string, fallback: string[]): string[] {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const origins: string[] = [];
    for (const item of raw.split(',').map((part) => part.trim()).filter(Boolean)) {
      let origin: string | undefined;
      try {
        const parsed = new URL(item);
        if (HTTP.includes(parsed.protocol) && parsed.origin === item.replace(/\/+$/, '')) origin = parsed.origin;
      } catch {
        origin = undefined;
      }
      if (origin === undefined) {
        this.problems.push(`${name} must be a comma-separated list of http(s) origins such as https://game.example (got "${item}")`);
        return fallback;
      }
      origins.push(origin);
    }
    return origins;
  }

  /** A comma-separated list of lower-case DNS host names (no scheme, port or wildcard). */
  hostnames(name: string, fallback: string[]): string[] {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const hosts = raw.split(',').map((part) => part.trim()).filter(Boolean);
    const bad = hosts.find((host) => !HOSTNAME.test(host));
    if (bad !== undefined || hosts.length === 0) {
      this.problems.push(`${name} must be a comma-separated list of lower-case host names such as game.example (got "${bad ?? raw}")`);
      return fallback;
    }
    return hosts;
  }

  hostname(name: string, fallback: string): string {
    const hosts = this.hostnames(name, [fallback]);
    if (hosts.length !== 1) {
      this.problems.push(`${name} must be a single host name (got "${hosts.join(',')}")`);
      return fallback;
    }
    return hosts[0];
  }

  /** A PEM public key usable for ES256 (EC P-256) or RS256 (RSA, at least 2048 bits); `\n` escapes allowed. */
  publicKey(name: string): string | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const pem = raw.replaceAll('\\n', '\n');
    try {
      const key = createPublicKey(pem);
      const details = key.asymmetricKeyDetails ?? {};
      const ec = key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1';
      const rsa = key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048;
      if (!ec && !rsa) throw new Error('type');
      return pem;
    } catch {
      this.problems.push(`${name} must be a PEM public key, EC P-256 (ES256) or RSA of at least 2048 bits (RS256)`);
      return undefined;
    }
  }

  /** Proxy hops to trust: a count from 0 to 10; `true` means one hop, `false` none. */
  proxyHops(name: string): number {
    const raw = this.string(name);
    if (raw === undefined) return 0;
    const lowered = raw.toLowerCase();
    if (['false', 'no'].includes(lowered)) return 0;
    if (['true', 'yes'].includes(lowered)) return 1;
    if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
    this.problems.push(`${name} must be the number of trusted proxy hops from 0 to 10, or true (one hop) or false (got "${raw}")`);
    return 0;
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
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Rate limits under NODE_ENV=test unless set explicitly, so unrelated suites never trip them. */
export const TEST_RATE_LIMIT = 1_000_000;
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
  const idpPublicKey = read.publicKey('IDP_PUBLIC_KEY');
  const idpJwksUrl = read.url('IDP_JWKS_URL', undefined, HTTP);
  const testLimit = (normal: number) => (nodeEnv === 'test' ? TEST_RATE_LIMIT : normal);
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
    publicAddress: read.string('PUBLIC_ADDRESS'),
    internalAddress: read.string('INTERNAL_ADDRESS'),
    clusterKeyPrefix: read.string('CLUSTER_KEY_PREFIX') ?? 'rsgame:',
    clientBuildDir: path.resolve(projectRoot, read.string('CLIENT_BUILD_DIR') ?? 'client/dist'),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'warn' : 'info'),
    wsAuthTimeoutMs: read.integer('WS_AUTH_TIMEOUT_MS', 5_000, 100, 120_000),
    worldInterestRadius: read.integer('WORLD_INTEREST_RADIUS', 16, 2, 64),
    metricsToken: read.string('METRICS_TOKEN'),

    jwtTtlSeconds: read.integer('JWT_TTL_SECONDS', 3600, 60, 7 * 86_400),
    jwtIssuer: read.string('JWT_ISSUER') ?? 'rs-game-server',
    jwtAudience: read.string('JWT_AUDIENCE') ?? 'rs-game',
    idpPublicKey,
    idpJwksUrl,
    idpIssuer: read.string('IDP_ISSUER'),
    idpConfigured: idpPublicKey !== undefined || idpJwksUrl !== undefined,
    anonymousTtlSeconds: read.integer('ANONYMOUS_TTL_SECONDS', 86_400, 300, 30 * 86_400),
    tempUserCleanupSeconds: read.integer('TEMP_USER_CLEANUP_SECONDS', 600, 1, 86_400),
    sessionCheckSeconds: read.integer('SESSION_CHECK_SECONDS', 5, 1, 60),
    corsFrontendOrigins: Object.freeze(read.origins('CORS_FRONTEND_ORIGINS', ['https://game.example'])),
    corsStaticHost: read.hostname('CORS_STATIC_HOST', 'game.pages.example'),
    corsServerOrigin: read.origins('CORS_SERVER_ORIGIN', ['https://game-server.hosting.example'])[0],
    corsServerPreviewHost: read.hostname('CORS_SERVER_PREVIEW_HOST', 'hosting.example'),
    corsSocialHosts: Object.freeze(read.hostnames('CORS_SOCIAL_HOSTS', ['social-one.example', 'social-two.example'])),
    corsIdpHost: read.hostname('CORS_IDP_HOST', 'idp.example'),
    trustProxy: read.proxyHops('TRUST_PROXY'),
    rateLimitRestPerMinute: read.integer('RATE_LIMIT_REST_PER_MINUTE', testLimit(100), 1, TEST_RATE_LIMIT),
    rateLimitAuthPerMinute: read.integer('RATE_LIMIT_AUTH_PER_MINUTE', testLimit(10), 1, TEST_RATE_LIMIT),
    rateLimitBlockSeconds: read.integer('RATE_LIMIT_BLOCK_SECONDS', 60, 1, 86_400),
    rateLimitKeyPrefix: read.string('RATE_LIMIT_KEY_PREFIX') ?? 'rl',
    wsMessagesPerSecond: read.integer('WS_MESSAGES_PER_SECOND', 60, 1, 100_000),
    wsMaxConnectionsPerAddress: read.integer('WS_MAX_CONNECTIONS_PER_ADDRESS', testLimit(100), 1, TEST_RATE_LIMIT),
    wsMaxUnauthenticatedPerAddress: read.integer('WS_MAX_UNAUTHENTICATED_PER_ADDRESS', testLimit(10), 1, TEST_RATE_LIMIT),
    worldEntriesPerMinute: read.integer('WORLD_ENTRIES_PER_MINUTE', testLimit(12), 1, TEST_RATE_LIMIT),
    itemTransactionsPerSecond: read.integer('ITEM_TRANSACTIONS_PER_SECOND', testLimit(10), 1, TEST_RATE_LIMIT),
    groundItemPrivateSeconds: read.integer('GROUND_ITEM_PRIVATE_SECONDS', 60, 0, 86_400),
    groundItemPublicSeconds: read.integer('GROUND_ITEM_PUBLIC_SECONDS', 120, 1, 86_400),
    gravestoneSeconds: read.integer('GRAVESTONE_SECONDS', 900, 1, 7 * 86_400),
    itemsKeptOnDeath: read.integer('ITEMS_KEPT_ON_DEATH', 3, 0, 28),
    homeTeleportCastTicks: read.integer('HOME_TELEPORT_CAST_TICKS', 16, 1, 1000),
    homeTeleportCooldownSeconds: read.integer('HOME_TELEPORT_COOLDOWN_SECONDS', 1800, 0, 86_400),
    agentTokenTtlSeconds: read.integer('AGENT_TOKEN_TTL_SECONDS', 86_400, 60, 30 * 86_400),
    agentServiceTimeoutMs: read.integer('AGENT_SERVICE_TIMEOUT_MS', 3_000, 100, 60_000),
    tradeRequestTimeoutMs: read.integer('TRADE_REQUEST_TIMEOUT_MS', 30_000, 50, 3_600_000),
    tradeIdleTimeoutMs: read.integer('TRADE_IDLE_TIMEOUT_MS', 300_000, 50, 86_400_000),
    tradeRequestCooldownMs: read.integer('TRADE_REQUEST_COOLDOWN_MS', 3_000, 0, 3_600_000),
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
  if (read.string('CORS_SERVER_ORIGIN')?.includes(',')) {
    read.problems.push('CORS_SERVER_ORIGIN must be a single origin');
  }
  const voiceMissing = VOICE_VARIABLES.filter((name) => read.string(name) === undefined);
  if (voiceMissing.length > 0 && voiceMissing.length < VOICE_VARIABLES.length) {
    read.problems.push(`voice chat needs ${VOICE_VARIABLES.join(', ')} together (or none of them); missing: ${voiceMissing.join(', ')}`);
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
