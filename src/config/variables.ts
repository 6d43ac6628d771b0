/**
 * Every environment variable the server reads, declared once, grouped by area. Each key is the Config field the
 * variable fills (src/config.ts derives the Config type from this table and loadConfig reads it in this order, after
 * NODE_ENV); the README's configuration table and docs/configuration.md's reference are generated from it
 * (`npm run docs:config`, checked by test/readme.test.ts). Rules between variables (IDP key xor key set, voice all
 * or none, production's required and public addresses) live in src/config.ts.
 */
import { HTTP } from './env-reader.ts';
import { choice, directory, file, flag, group, hostname, hostnames, integer, origin, origins, proxyHops, publicKey, text, url } from './declare.ts';

/** Rate limits under NODE_ENV=test unless set explicitly, so unrelated suites never trip them. */
export const TEST_RATE_LIMIT = 1_000_000;
/**
 * The REST and authentication limits under NODE_ENV=development unless set explicitly: a local load test spends one
 * login and one REST request per bot (`npm run loadtest:colyseus`, README), and one address may hold
 * WS_MAX_CONNECTIONS_PER_ADDRESS (100) sockets — so ten such runs a minute from one machine fit. Production keeps
 * the spec's numbers (100 and 10).
 */
export const DEVELOPMENT_RATE_LIMIT = 1_000;
const WS = ['ws:', 'wss:'];

const server = group('Server', {
  nodeEnv: choice('NODE_ENV', {
    values: ['development', 'production', 'test'], default: 'development',
    description: 'run mode: `production` enforces the requirements below; `test` raises the limits and lowers the log level',
  }),
  port: integer('PORT', { default: 5555, min: 0, max: 65535, description: 'HTTP and WebSocket port (`0` picks a free one)' }),
  host: text('HOST', { default: '0.0.0.0', description: 'interface to listen on' }),
  commitHash: text('COMMIT_HASH', { default: 'unknown', description: 'build revision shown in `/status` and `/env.js`' }),
  clientBuildDir: directory('CLIENT_BUILD_DIR', {
    default: 'client/dist', description: 'client build, served when it holds an `index.html` (docs/frontend.md)',
  }),
  playPage: flag('PLAY_PAGE', {
    description: 'production: serve the play page at `/` when no client build is present (development and test always do; docs/frontend.md)',
  }),
});

const publicAddresses = group('Public addresses (given to clients by /env.js)', {
  publicApiUrl: url('PUBLIC_API_URL', {
    protocols: HTTP, default: 'http://localhost:5555', publicAddress: true, description: 'public API address given to clients',
  }),
  publicWsUrl: url('PUBLIC_WS_URL', {
    protocols: WS, default: 'ws://localhost:5555/ws', publicAddress: true, description: 'public WebSocket address given to clients',
  }),
  publicCdnUrl: url('PUBLIC_CDN_URL', {
    protocols: HTTP, default: 'http://localhost:8080', publicAddress: true, description: 'asset host',
  }),
  publicAppUrl: url('PUBLIC_APP_URL', {
    protocols: HTTP,
    description: 'the game\'s public address, given to clients and allowed as an origin; in production it must not be loopback when set',
  }),
});

const database = group('Database', {
  databaseUrl: url('DATABASE_URL', {
    protocols: ['postgres:', 'postgresql:'], requiredInProduction: true,
    description: 'PostgreSQL (15 or newer) connection string; unset → the embedded PGlite',
  }),
  pgliteDataDir: directory('PGLITE_DATA_DIR', {
    default: 'data/pglite', verbatim: 'memory://', description: 'embedded database directory (`memory://` keeps it in memory)',
  }),
  databaseInit: flag('DATABASE_INIT', {
    description: 'production: create the database `DATABASE_URL` names if it does not exist and set up its schema if it holds none (a first deployment); without it production refuses to start against either (development and test always do)',
  }),
  useLocalPostgres: flag('USE_LOCAL_POSTGRES', {
    developmentOnly: true, description: 'start a local PostgreSQL container when a container engine is available',
  }),
  saveIntervalSeconds: integer('SAVE_INTERVAL', { default: 60, min: 1, max: 86_400, description: 'auto-save interval in seconds' }),
});

const identity = group('Identity and tokens (docs/auth.md)', {
  jwtSecret: text('JWT_SECRET', {
    secret: true, requiredInProduction: true, description: 'secret signing server tokens (HS256); in production at least 32 bytes',
  }),
  jwtDevSecretFile: file('JWT_DEV_SECRET_FILE', {
    default: 'data/jwt-dev-secret',
    description: 'development only, without `JWT_SECRET`: where the generated signing secret is kept (mode 0600) so tokens outlive restarts',
  }),
  adminCode: text('ADMIN_CODE', { secret: true, requiredInProduction: true, description: 'code granting in-game admin commands' }),
  publicIdpAppId: text('PUBLIC_IDP_APP_ID', {
    requiredInProduction: true,
    description: 'identity provider application id, exposed through `/env.js`; the expected audience of its tokens',
  }),
  idpAppSecret: text('IDP_APP_SECRET', { secret: true, requiredInProduction: true, description: 'identity provider secret, never exposed' }),
  jwtTtlSeconds: integer('JWT_TTL_SECONDS', { default: 3600, min: 60, max: 7 * 86_400, description: 'lifetime of the server\'s access tokens, in seconds' }),
  jwtIssuer: text('JWT_ISSUER', { default: 'rs-game-server', description: '`iss` of server tokens' }),
  jwtAudience: text('JWT_AUDIENCE', { default: 'rs-game', description: '`aud` of server tokens' }),
  idpPublicKey: publicKey('IDP_PUBLIC_KEY', {
    description: 'the identity provider\'s token-signing public key; this or `IDP_JWKS_URL`, neither → anonymous mode',
  }),
  idpJwksUrl: url('IDP_JWKS_URL', {
    protocols: HTTP, accepts: 'https URL (http for localhost)',
    description: 'the identity provider\'s JSON Web Key Set; this or `IDP_PUBLIC_KEY`',
  }),
  idpIssuer: text('IDP_ISSUER', { description: 'expected `iss` of identity-provider tokens; unchecked when unset' }),
  anonymousTtlSeconds: integer('ANONYMOUS_TTL_SECONDS', {
    default: 86_400, min: 300, max: 30 * 86_400, description: 'how long a temporary (anonymous) identity lives, in seconds',
  }),
  tempUserCleanupSeconds: integer('TEMP_USER_CLEANUP_SECONDS', {
    default: 600, min: 1, max: 86_400, description: 'how often expired temporary identities are deleted, in seconds',
  }),
  sessionCheckSeconds: integer('SESSION_CHECK_SECONDS', {
    default: 5, min: 1, max: 60,
    description: 'how often live sessions re-check revocation, expiry, account and roles (docs/auth.md, Live sessions); also the role cache\'s age',
  }),
});

const edge = group('Cross-origin policy and proxies (docs/auth.md)', {
  corsFrontendOrigins: origins('CORS_FRONTEND_ORIGINS', {
    default: ['https://game.example'], description: 'production frontend origins; each one\'s `www` variant is allowed too',
  }),
  corsStaticHost: hostname('CORS_STATIC_HOST', {
    default: 'game.pages.example', description: 'the frontend\'s static host: its https and http origins and its preview subdomains',
  }),
  corsServerOrigin: origin('CORS_SERVER_ORIGIN', {
    default: 'https://game-server.hosting.example', description: 'the server\'s own production origin',
  }),
  corsServerPreviewHost: hostname('CORS_SERVER_PREVIEW_HOST', {
    default: 'hosting.example', description: 'host whose https subdomains are preview deployments of the server',
  }),
  corsSocialHosts: hostnames('CORS_SOCIAL_HOSTS', {
    default: ['social-one.example', 'social-two.example'], description: 'social-frame hosts whose https subdomains may embed the game',
  }),
  corsIdpHost: hostname('CORS_IDP_HOST', { default: 'idp.example', description: 'the identity provider\'s host; its https subdomains are allowed' }),
  clientUrl: url('CLIENT_URL', { protocols: HTTP, description: 'an extra allowed origin' }),
  trustProxy: proxyHops('TRUST_PROXY', { description: 'reverse-proxy hops whose `X-Forwarded-For` entries are believed' }),
});

const limits = group('Limits (docs/auth.md, Limits)', {
  disableRateLimit: flag('DISABLE_RATE_LIMIT', { developmentOnly: true, description: 'no rate limits' }),
  rateLimitRestPerMinute: integer('RATE_LIMIT_REST_PER_MINUTE', {
    default: 100, inDevelopment: DEVELOPMENT_RATE_LIMIT, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT,
    description: 'REST requests per address per minute (development: enough for local load tests, docs/loadtest.md)',
  }),
  rateLimitAuthPerMinute: integer('RATE_LIMIT_AUTH_PER_MINUTE', {
    default: 10, inDevelopment: DEVELOPMENT_RATE_LIMIT, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT,
    description: 'authentication attempts per address per minute (development: enough for local load tests, docs/loadtest.md)',
  }),
  rateLimitBlockSeconds: integer('RATE_LIMIT_BLOCK_SECONDS', {
    default: 60, min: 1, max: 86_400, description: 'how long an address stays blocked after exceeding a REST or authentication limit',
  }),
  rateLimitKeyPrefix: text('RATE_LIMIT_KEY_PREFIX', { default: 'rl', description: 'key prefix of the limit counters (in Redis with `REDIS_URL`)' }),
  wsMessagesPerSecond: integer('WS_MESSAGES_PER_SECOND', { default: 60, min: 1, max: 100_000, description: 'per-connection WebSocket message limit' }),
  wsAuthTimeoutMs: integer('WS_AUTH_TIMEOUT_MS', {
    default: 5_000, min: 100, max: 120_000, description: 'milliseconds a `/ws` connection has to send `authenticate`',
  }),
  wsMaxConnectionsPerAddress: integer('WS_MAX_CONNECTIONS_PER_ADDRESS', {
    default: 100, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT,
    description: 'concurrent WebSocket connections (`/ws` and SDK room sockets) one address may hold; shared through Redis with `REDIS_URL`',
  }),
  wsMaxUnauthenticatedPerAddress: integer('WS_MAX_UNAUTHENTICATED_PER_ADDRESS', {
    default: 10, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT, description: 'of those, `/ws` connections not yet authenticated',
  }),
  worldEntriesPerMinute: integer('WORLD_ENTRIES_PER_MINUTE', {
    default: 12, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT,
    description: 'world entries (`world:enter`, SDK joins) per account per minute; reconnections are free',
  }),
  itemTransactionsPerSecond: integer('ITEM_TRANSACTIONS_PER_SECOND', {
    default: 10, inTest: TEST_RATE_LIMIT, min: 1, max: TEST_RATE_LIMIT,
    description: 'item transactions (moves, bank, shop, equip…) per account per second',
  }),
});

const scaleOut = group('Scale-out (docs/scaling.md)', {
  redisUrl: url('REDIS_URL', {
    protocols: ['redis:', 'rediss:'], description: 'Redis for scale-out (several processes) and shared rate limits',
  }),
  publicAddress: text('PUBLIC_ADDRESS', {
    accepts: '`host[:port]`', shownDefault: '`HOST:PORT`', description: 'the address SDK clients reach this process at, returned by matchmaking',
  }),
  internalAddress: text('INTERNAL_ADDRESS', {
    accepts: '`host:port`', shownDefault: '`HOST:PORT`', description: 'the address other processes relay `/ws` sockets to',
  }),
  clusterKeyPrefix: text('CLUSTER_KEY_PREFIX', { default: 'rsgame:', description: 'prefix of the shared Redis keys (presence and room listing)' }),
  worldLeaseSeconds: integer('WORLD_LEASE_SECONDS', {
    default: 10, min: 2, max: 300,
    description: 'a world\'s lease on its number, renewed every third of it; after a process stops renewing, another may take the world over this long after its last renewal (docs/scaling.md)',
  }),
});

const world = group('World (docs/manifests.md, economy.md, game-rules.md)', {
  worldDir: directory('WORLD', {
    default: 'world', description: 'world directory (manifests under `assets/manifests`, models under `assets/models`)',
  }),
  skipManifests: flag('SKIP_MANIFESTS', { description: 'skip manifest fetching and validation' }),
  skipAssets: flag('SKIP_ASSETS', { description: 'asset download switch' }),
  ci: flag('CI', { description: 'loads manifests from the asset host as production does' }),
  worldInterestRadius: integer('WORLD_INTEREST_RADIUS', {
    default: 16, min: 2, max: 64, description: 'area-of-interest radius in tiles: players receive entities within this distance',
  }),
  worldCapacity: integer('WORLD_CAPACITY', {
    default: 2_000, min: 1, max: 5_000,
    description: 'players per world; the matchmaker opens another world when every open one is full (docs/worlds.md)',
  }),
  admissionTickMs: integer('ADMISSION_TICK_MS', {
    default: 150, inTest: 60_000, min: 1, max: 60_000,
    description: 'a process whose world tick (median of the last 10, grown by the players entering) would take this many milliseconds takes no new logins (docs/worlds.md)',
  }),
  admissionLagMs: integer('ADMISSION_LAG_MS', {
    default: 100, inTest: 60_000, min: 1, max: 60_000,
    description: 'a process whose event loop lags this many milliseconds (p99 over 5 s), or whose ticks start this late, takes no new logins',
  }),
  admissionEntriesInFlight: integer('ADMISSION_ENTRIES_IN_FLIGHT', {
    default: 8, inTest: 100_000, min: 1, max: 100_000,
    description: 'new logins one process works on at once (each loads a character and writes its session); one more is refused `WORLD_BUSY` or queued',
  }),
  loginQueueMax: integer('LOGIN_QUEUE_MAX', {
    default: 2_000, min: 1, max: 100_000, description: 'most players waiting in one world\'s login queue; beyond it, `QUEUE_FULL`',
  }),
  worldsMin: integer('WORLDS_MIN', { default: 1, min: 1, max: 100, description: 'worlds kept open (numbers 1 to this) even when empty' }),
  worldIdleCloseSeconds: integer('WORLD_IDLE_CLOSE_SECONDS', {
    default: 60, min: 1, max: 86_400, description: 'how long a world numbered above `WORLDS_MIN` stays open once empty',
  }),
  groundItemPrivateSeconds: integer('GROUND_ITEM_PRIVATE_SECONDS', {
    default: 60, min: 0, max: 86_400, description: 'how long a dropped item is visible to its owner only',
  }),
  groundItemPublicSeconds: integer('GROUND_ITEM_PUBLIC_SECONDS', {
    default: 120, min: 1, max: 86_400, description: 'how long it is then visible to everyone before it is gone',
  }),
  gravestoneSeconds: integer('GRAVESTONE_SECONDS', {
    default: 900, min: 1, max: 7 * 86_400, description: 'how long a gravestone waits for its owner before its items become public',
  }),
  itemsKeptOnDeath: integer('ITEMS_KEPT_ON_DEATH', { default: 3, min: 0, max: 28, description: 'how many of the most valuable items a dying player keeps' }),
  homeTeleportCastTicks: integer('HOME_TELEPORT_CAST_TICKS', { default: 16, min: 1, max: 1000, description: 'home teleport cast time, in 600 ms ticks' }),
  homeTeleportCooldownSeconds: integer('HOME_TELEPORT_COOLDOWN_SECONDS', {
    default: 1800, min: 0, max: 86_400, description: 'seconds before the next home teleport',
  }),
});

const trading = group('Trading (docs/trading.md)', {
  tradeRequestTimeoutMs: integer('TRADE_REQUEST_TIMEOUT_MS', {
    default: 30_000, min: 50, max: 3_600_000, description: 'a trade request not answered within this many milliseconds expires',
  }),
  tradeIdleTimeoutMs: integer('TRADE_IDLE_TIMEOUT_MS', {
    default: 300_000, min: 50, max: 86_400_000, description: 'an open trade with no action for this many milliseconds is cancelled',
  }),
  tradeRequestCooldownMs: integer('TRADE_REQUEST_COOLDOWN_MS', {
    default: 3_000, min: 0, max: 3_600_000,
    description: 'a repeated request to the same player within this many milliseconds is refused with `RATE_LIMITED`',
  }),
});

const agents = group('AI agents (docs/api.md)', {
  agentUrl: url('AGENT_URL', { protocols: HTTP, description: 'the AI-agent service that answers agent chat (also an allowed origin)' }),
  agentApiUrl: url('AGENT_API_URL', { protocols: HTTP, description: 'its API address, preferred over `AGENT_URL` (also an allowed origin)' }),
  agentTokenTtlSeconds: integer('AGENT_TOKEN_TTL_SECONDS', {
    default: 86_400, min: 60, max: 30 * 86_400, description: 'lifetime of agent tokens issued by `POST /api/agent`, in seconds',
  }),
  agentServiceTimeoutMs: integer('AGENT_SERVICE_TIMEOUT_MS', {
    default: 3_000, min: 100, max: 60_000, description: 'how long a message forwarded to the agent service may take, in milliseconds',
  }),
});

const voice = group('Voice chat (docs/api.md, Voice; all three or none)', {
  voiceApiKey: text('VOICE_API_KEY', { secret: true, description: 'voice service API key, for `POST /api/voice/token`' }),
  voiceApiSecret: text('VOICE_API_SECRET', { secret: true, description: 'voice service API secret' }),
  voiceUrl: url('VOICE_URL', { protocols: [...WS, ...HTTP], description: 'voice service address, given to clients by `/env.js`' }),
});

const observability = group('Observability (docs/logging.md, operations.md)', {
  // Typed `string` (not the union of levels): callers such as createLogger take the Config's field as any pino level name.
  logLevel: choice<string>('LOG_LEVEL', {
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info', inTest: 'warn', description: 'pino log level',
  }),
  metricsToken: text('METRICS_TOKEN', {
    secret: true, shownDefault: 'unset (admins only)', description: 'bearer token a Prometheus scraper presents at `GET /metrics`',
  }),
});

/** The areas, in the order the tables list them. */
export const CONFIG_GROUPS = [
  server, publicAddresses, database, identity, edge, limits, scaleOut, world, trading, agents, voice, observability,
] as const;

/** Every declaration by the Config field it fills. */
export const VARIABLES = {
  ...server.variables, ...publicAddresses.variables, ...database.variables, ...identity.variables, ...edge.variables,
  ...limits.variables, ...scaleOut.variables, ...world.variables, ...trading.variables, ...agents.variables,
  ...voice.variables, ...observability.variables,
};
