/**
 * The OpenAPI 3.1 document (GET /api/openapi.json), generated from the route declarations of api-kit.ts — the same
 * zod schemas that validate requests — with zod 4's built-in `z.toJSONSchema()` (JSON Schema 2020-12, the dialect
 * of OpenAPI 3.1). Named schemas (`.meta({ id })`) become components. Routes mounted by other modules (health,
 * manifests, skill unlocks, /api/auth, metrics) are declared in `documentOtherRoutes` with the shapes those modules
 * answer. test/api/openapi.test.ts validates the document and compares its paths with the routes Express mounts.
 */
import type { Express } from 'express';
import { z } from 'zod';
import { SERVICE_VERSION } from '../version.ts';
import type { ApiRegistry, RouteSpec } from './routes/api-kit.ts';
import { NoQuery, ProblemSchema } from './routes/api-kit.ts';

type JsonObject = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid path parameters, query or body (VALIDATION_FAILED with `errors`; also a NUL character anywhere in them), or malformed JSON (MALFORMED_JSON)',
  401: 'Missing or invalid token (AUTH_REQUIRED, TOKEN_INVALID, TOKEN_EXPIRED, ACCOUNT_NOT_FOUND)',
  403: 'Valid token without the player role (INSUFFICIENT_ROLE) or token kind (INSUFFICIENT_SCOPE), or not yours',
  404: 'Unknown id',
  409: 'Conflicts with the current state',
  429: 'Rate limit exceeded (RATE_LIMITED), with Retry-After',
  501: 'Not implemented yet (FEATURE_PENDING)',
  502: 'An upstream service answered badly',
  503: 'A dependency is unavailable (SERVICE_UNAVAILABLE: the database cannot be reached now), with Retry-After',
};

/** JSON Schema of a zod schema, with `$defs` hoisted into `components` and refs rewritten to point there. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: JsonObject): JsonObject {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonObject> | undefined;
  delete json.$defs;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: JsonObject = {};
      for (const [key, inner] of Object.entries(value)) {
        out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : rewrite(inner);
      }
      return out;
    }
    return value;
  };
  for (const [name, def] of Object.entries(defs ?? {})) {
    const key = io === 'input' && components[name] ? name : name;
    components[key] ??= rewrite(def);
  }
  return rewrite(json) as JsonObject;
}

function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parametersOf(spec: RouteSpec, components: JsonObject): JsonObject[] {
  const parameters: JsonObject[] = [];
  for (const [where, schema] of [['path', spec.params], ['query', spec.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input', components);
    const properties = (json.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({
        name, in: where, required: where === 'path' ? true : required.has(name) && property.default === undefined,
        ...(typeof property.description === 'string' ? { description: property.description } : {}), schema: property,
      });
    }
  }
  return parameters;
}

function operationOf(spec: RouteSpec, components: JsonObject): JsonObject {
  const bearer = (spec.auth ?? 'bearer') === 'bearer';
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output', components) } } } : {}),
    };
  }
  // A bearer token's account is read from the database, so a route that takes one answers 503 while it is away.
  const statuses = new Set([...spec.errors, ...(bearer ? [401, 403, 503] : []), 429]);
  for (const status of [...statuses].sort()) {
    const codes = spec.errorCodes?.[status];
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}${codes ? ` — codes: ${codes.join(', ')}` : ''}`,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  if (Object.keys(spec.responses).length === 0 && !responses['501']) responses.default = { description: 'see errors' };
  return {
    operationId: `${spec.method}${spec.path.replace(/[:/{}.-]+([a-z])?/gi, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    security: bearer ? [{ bearerAuth: [] }] : [],
    ...(parametersOf(spec, components).length ? { parameters: parametersOf(spec, components) } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input', components) } } } } : {}),
    responses,
  };
}

export function buildOpenApiDocument(registry: ApiRegistry): JsonObject {
  const components: JsonObject = {};
  const paths: Record<string, JsonObject> = {};
  for (const spec of registry.routes) {
    const path = openApiPath(spec.path);
    paths[path] ??= {};
    paths[path][spec.method] = operationOf(spec, components);
  }
  components.Problem = schemaOf(ProblemSchema, 'output', components);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Game server API',
      version: SERVICE_VERSION,
      description: 'REST API of the authoritative game server. Errors are RFC 9457 problem documents with a stable `code` (docs/errors.md). Lists paginate with limit (1–100, default 20) and offset; pages carry total and nextOffset (docs/api.md).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(registry.routes.flatMap((r) => r.tags))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A server token (docs/auth.md): scope player, or agent for AI agents' } },
    },
  };
}

// ---- routes mounted by other modules, described here ----

const Session = z.object({
  token: z.string(), tokenType: z.literal('Bearer'), expiresAt: z.string(), accountId: z.string(), roles: z.array(z.string()),
  characterId: z.string().optional(), temporary: z.boolean(), accountExpiresAt: z.string().optional(),
}).meta({ id: 'Session' });

export function documentOtherRoutes(registry: ApiRegistry): void {
  const text = (description: string): RouteSpec['responses'] => ({ 200: { description } });
  const add = (spec: Omit<RouteSpec, 'errors'> & { errors?: number[] }) => registry.add({ errors: [], ...spec });
  add({ method: 'get', path: '/health', tags: ['service'], auth: 'none', summary: 'Health: status, timestamp, version',
    responses: { 200: { description: 'healthy', schema: z.object({ status: z.string(), timestamp: z.string(), version: z.string() }) } } });
  add({ method: 'get', path: '/status', tags: ['service'], auth: 'none', summary: 'Hosting health check', responses: { 200: { description: 'up', schema: z.record(z.string(), z.unknown()) } } });
  add({ method: 'get', path: '/docs/errors.md', tags: ['service'], auth: 'none', summary: 'The errors reference every problem\'s `type` points to (HTML; each code\'s row anchored by its fragment)',
    responses: text('docs/errors.md as an HTML page') });
  add({ method: 'get', path: '/env.js', tags: ['service'], auth: 'none', summary: 'Public client configuration (JavaScript)', responses: text('a script assigning the public configuration') });
  add({ method: 'get', path: '/manifests/{file}', tags: ['service'], auth: 'none', summary: 'A cached game-data manifest (Cache-Control: public, max-age=300, must-revalidate)',
    params: z.object({ file: z.string() }), responses: { 200: { description: 'the manifest', schema: z.unknown() } }, errors: [404] });
  add({ method: 'get', path: '/api/data/skill-unlocks', tags: ['service'], auth: 'none', summary: 'Skill unlocks by skill name',
    responses: { 200: { description: 'unlocks', schema: z.record(z.string(), z.array(z.object({ level: z.number(), description: z.string(), type: z.string() }))) } } });
  add({ method: 'post', path: '/api/auth/exchange', tags: ['auth'], auth: 'none', summary: 'Exchange an identity-provider token for a server token',
    body: z.object({ idpToken: z.string().min(1).max(16_384).optional() }), responses: { 200: { description: 'session', schema: Session } }, errors: [400, 401, 403, 503] });
  add({ method: 'post', path: '/api/auth/anonymous', tags: ['auth'], auth: 'none', summary: 'A temporary identity (anonymous mode)',
    responses: { 201: { description: 'session', schema: Session } }, errors: [403, 503] });
  add({ method: 'post', path: '/api/auth/refresh', tags: ['auth'], scopes: ['player'], summary: 'A fresh token for the same account and character',
    responses: { 200: { description: 'session', schema: Session } } });
  add({ method: 'post', path: '/api/auth/character-token', tags: ['auth'], scopes: ['player'], summary: 'A token bound to one of your characters',
    body: z.object({ characterId: z.string().min(1).max(200) }), responses: { 200: { description: 'session', schema: Session } }, errors: [400, 404] });
  add({ method: 'get', path: '/api/auth/me', tags: ['auth'], summary: 'The caller\'s account', responses: { 200: { description: 'account', schema: z.record(z.string(), z.unknown()) } } });
  add({ method: 'get', path: '/api/admin/trades', tags: ['admin'], summary: 'Trade audit log (admin role)',
    query: z.object({ characterId: z.string().max(64).optional(), limit: z.string().optional() }),
    responses: { 200: { description: 'audited trades', schema: z.object({ trades: z.array(z.record(z.string(), z.unknown())) }) } }, errors: [400] });
  add({ method: 'get', path: '/metrics', tags: ['service'], summary: 'Prometheus metrics (scraper token or admin role)', responses: text('Prometheus text format') });
  // The live world map's data (docs/operations.md); the page itself, /operator/world-map, is an operator UI like /colyseus.
  const mapWorld = z.object({ worldId: z.string() });
  const mapSummary = z.object({ worldId: z.string(), world: z.number(), tick: z.number(), players: z.number(), lastTickMs: z.number().nullable(), tickMs: z.number() });
  add({ method: 'get', path: '/operator/world-map/api/worlds', tags: ['operator'], summary: 'World rooms of this process, by number, and the process (admin; Bearer or Basic with the token as password)',
    responses: { 200: { description: 'worlds', schema: z.object({ process: z.object({ id: z.string(), pid: z.number() }), worlds: z.array(mapSummary) }) } } });
  add({ method: 'get', path: '/operator/world-map/api/worlds/:worldId/tiles', tags: ['operator'], summary: 'A world\'s tile map: one row per z, `.` ground, `~` water, `#` blocked (admin)',
    params: mapWorld, errors: [404], responses: { 200: { description: 'tiles', schema: z.object({
      worldId: z.string(), width: z.number(), depth: z.number(), home: z.object({ x: z.number(), z: z.number() }), rows: z.array(z.string()),
    }) } } });
  add({ method: 'get', path: '/operator/world-map/api/worlds/:worldId/snapshot', tags: ['operator'], summary: 'Every entity of a world, its tick and last tick time (admin)',
    params: mapWorld, errors: [404], responses: { 200: { description: 'snapshot', schema: mapSummary.extend({
      entities: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
    }) } } });
}

export function documentOpenApiRoute(registry: ApiRegistry): void {
  registry.add({ method: 'get', path: '/api/openapi.json', tags: ['service'], auth: 'none', query: NoQuery, summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'the document', schema: z.record(z.string(), z.unknown()) } }, errors: [400] });
}

/** Method + path (OpenAPI style) of every route the Express app mounts, read from its router stack. */
export function mountedRoutes(app: Express): Array<{ method: string; path: string }> {
  const found: Array<{ method: string; path: string }> = [];
  interface Layer { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } }
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') found.push({ method, path: openApiPath(layer.route.path) });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk(((app as unknown as { router: { stack: Layer[] } }).router?.stack) ?? []);
  return found;
}
