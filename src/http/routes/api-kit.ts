/**
 * One declaration per REST endpoint: the zod schemas that validate its path parameters, query and body, its
 * response schemas and the problem statuses it can answer. `defineRoute` mounts the Express handler (checks in the
 * order auth → role/scope → 400 validation → the handler's 404/403) and records the same declaration in an
 * `ApiRegistry`, from which src/http/openapi.ts generates the OpenAPI document. No hand-kept copy exists.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { identityOf, requireRole, requireScope } from '../../auth/middleware.ts';
import type { Identity, TokenScope } from '../../auth/tokens.ts';
import { GameError } from '../../game/refusal.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  /** Omitted for empty bodies (204). */
  schema?: z.ZodType;
}

export interface RouteSpec {
  method: HttpMethod;
  /** Express path, e.g. /api/character/:characterId */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Default 'bearer'. */
  auth?: 'bearer' | 'none';
  /** Token kinds accepted (403 INSUFFICIENT_SCOPE otherwise); default both. */
  scopes?: TokenScope[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
  /** Problem statuses besides 401/403/429, which every bearer route has. */
  errors: number[];
  /** Which codes the errors carry, for the document (status → codes). */
  errorCodes?: Record<number, string[]>;
}

export class ApiRegistry {
  readonly routes: RouteSpec[] = [];

  add(spec: RouteSpec): void {
    this.routes.push(spec);
  }
}

export interface RouteContext<P, Q, B> {
  req: Request;
  res: Response;
  params: P;
  query: Q;
  body: B;
  /** Undefined only on routes with auth 'none'. */
  identity: Identity;
}

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** The role every game API token must carry (accounts without it are suspended from the API: 403). */
export const API_ROLE = 'player';

type Issue = z.ZodError['issues'][number];

/**
 * A union that matched no branch reports the issues of the branch that came closest (fewest issues, a wrong key
 * set counting heavily), so e.g. a goal with a bad `skill` names that field instead of "Invalid input".
 */
function closestIssues(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const score = (issues: Issue[]) => issues.reduce((n, i) => n + (i.path.length === 0 && i.code !== 'custom' ? 10 : 1), 0);
  const branches = issue.errors.map((branch) => branch.flatMap(closestIssues).map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue));
  return branches.reduce((best, branch) => (score(branch) < score(best) ? branch : best));
}

function validationProblem(where: 'path' | 'query' | 'body', error: z.ZodError): GameError {
  return new GameError('VALIDATION_FAILED', `The request ${where === 'path' ? 'path parameters are' : where === 'query' ? 'query is' : 'body is'} not valid`, {
    errors: error.issues.flatMap(closestIssues).map((issue) => ({ in: where, path: issue.path.join('.'), message: issue.message })),
  });
}

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, where: 'path' | 'query' | 'body'): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw validationProblem(where, result.error);
  return result.data as Infer<S>;
}

export function defineRoute<S extends RouteSpec>(
  router: Router,
  registry: ApiRegistry,
  spec: S,
  handler: (context: RouteContext<Infer<S['params']>, Infer<S['query']>, Infer<S['body']>>) => Promise<void> | void,
): void {
  registry.add(spec);
  const guards: RequestHandler[] = [];
  if ((spec.auth ?? 'bearer') === 'bearer') {
    guards.push(requireRole(API_ROLE));
    if (spec.scopes) guards.push(requireScope(...spec.scopes));
  }
  router[spec.method](spec.path, ...guards, async (req: Request, res: Response) => {
    const params = parse(spec.params, req.params, 'path');
    const query = parse(spec.query, { ...(req.query as Record<string, unknown>) }, 'query');
    const body = parse(spec.body, req.body ?? {}, 'body');
    const identity = (spec.auth ?? 'bearer') === 'bearer' ? identityOf(req) : (undefined as unknown as Identity);
    res.set('Cache-Control', 'no-store');
    await handler({ req, res, params, query, body, identity } as RouteContext<Infer<S['params']>, Infer<S['query']>, Infer<S['body']>>);
  });
}

// ---- shared schemas ----

/** Ids in paths: uuids and manifest ids; anything longer or with other characters is a 400. */
export const IdParam = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or -');

/** Offset pagination, documented in docs/api.md: `limit` 1–100 (default 20), `offset` ≥ 0. */
export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    /** The offset of the next page, null on the last. */
    nextOffset: z.number().int().nullable(),
  });
}

export function page<T>(items: T[], total: number, limit: number, offset: number) {
  return { items, total, limit, offset, nextOffset: offset + items.length < total ? offset + items.length : null };
}

/** An empty, strict query: unknown query parameters are a 400. */
export const NoQuery = z.object({}).strict();

export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string().describe('Stable upper-snake error code (docs/errors.md)'),
  errors: z.array(z.object({ in: z.string().optional(), path: z.string(), message: z.string() })).optional(),
}).loose();
