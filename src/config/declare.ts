/**
 * The vocabulary of src/config/variables.ts: one builder per kind of value (integer, flag, text, URL, path, origins,
 * host names, key, choice). A declaration says everything about its variable once — name, kind, bounds, default,
 * meaning, and whether it is secret, required in production, or honoured in development only — and knows how to
 * read it (loadConfig) and how to describe it (the generated tables of README.md and docs/configuration.md).
 */
import path from 'node:path';
import type { EnvReader } from './env-reader.ts';

export type NodeEnv = 'development' | 'production' | 'test';

/** What a declaration may depend on while it is read. NODE_ENV is read first; the others see it. */
export interface ReadContext {
  readonly nodeEnv: NodeEnv;
  readonly projectRoot: string;
  /** Non-fatal remarks, returned beside the configuration. */
  readonly warnings: string[];
}

export interface Variable<T> {
  /** The environment variable. */
  readonly name: string;
  /** Its meaning, one line of Markdown for the tables. */
  readonly description: string;
  /** The values it takes, for the tables (e.g. "integer 1–86400"). */
  readonly accepts: string;
  /** What applies when it is unset, for the tables. */
  readonly defaultText: string;
  /** Never shown to a client or written to a log (secretValues). */
  readonly secret: boolean;
  /** NODE_ENV=production refuses to start without it (REQUIRED_IN_PRODUCTION). */
  readonly requiredInProduction: boolean;
  /** An address /env.js gives clients: in production it must be set and not loopback (PUBLIC_ADDRESS_VARIABLES). */
  readonly publicAddress: boolean;
  /** Honoured in development and test; in production ignored with a warning. */
  readonly developmentOnly: boolean;
  read(reader: EnvReader, context: ReadContext): T;
}

/** What every builder accepts besides its kind's own options. */
interface Common {
  readonly description: string;
  readonly secret?: boolean;
  readonly requiredInProduction?: boolean;
  readonly publicAddress?: boolean;
  /** The tables' "values" text, when the kind's own says too little (e.g. `host[:port]`). */
  readonly accepts?: string;
  /** The tables' default text, when the value read is not the whole story (e.g. a default applied elsewhere). */
  readonly shownDefault?: string;
}

const code = (value: string | number) => `\`${value}\``;

function declare<T>(name: string, common: Common, accepts: string, defaultText: string | undefined,
  read: (reader: EnvReader, context: ReadContext) => T, developmentOnly = false): Variable<T> {
  const required = common.requiredInProduction ?? false;
  const shown = common.shownDefault ?? defaultText ?? 'unset';
  return Object.freeze({
    name,
    description: common.description,
    accepts: common.accepts ?? accepts,
    defaultText: required ? `${shown}; required in production` : shown,
    secret: common.secret ?? false,
    requiredInProduction: required,
    publicAddress: common.publicAddress ?? false,
    developmentOnly,
    read,
  });
}

/** `default` under NODE_ENV=test when `inTest` is given (limits that unrelated test suites must never trip). */
function withTestDefault<T>(fallback: T, inTest: T | undefined, context: ReadContext): T {
  return inTest !== undefined && context.nodeEnv === 'test' ? inTest : fallback;
}

function defaultWithTest(fallback: string | number, inTest: string | number | undefined): string {
  return inTest === undefined ? code(fallback) : `${code(fallback)} (${code(inTest)} in test)`;
}

/** A whole number within bounds; `inDevelopment` is the default under NODE_ENV=development (then `default` is production's). */
export function integer(name: string, options: Common & { default: number; min: number; max: number; inTest?: number; inDevelopment?: number }): Variable<number> {
  const { min, max, inTest, inDevelopment } = options;
  const shown = inDevelopment === undefined
    ? defaultWithTest(options.default, inTest)
    : `${code(options.default)} in production, ${code(inDevelopment)} in development${inTest === undefined ? '' : `, ${code(inTest)} in test`}`;
  return declare(name, options, `integer ${min}–${max}`, shown, (reader, context) => {
    const fallback = inDevelopment !== undefined && context.nodeEnv === 'development' ? inDevelopment : options.default;
    return reader.integer(name, withTestDefault(fallback, inTest, context), min, max);
  });
}

/** `true`/`false` (also `1`/`0`, `yes`/`no`); unset is false. */
export function flag(name: string, options: Common & { developmentOnly?: boolean }): Variable<boolean> {
  const developmentOnly = options.developmentOnly ?? false;
  return declare(name, options, 'true or false', code('false'), (reader, context) => {
    const value = reader.boolean(name);
    if (value && developmentOnly && context.nodeEnv === 'production') {
      context.warnings.push(`${name}=true is honoured in development only; ignored in production`);
      return false;
    }
    return value;
  }, developmentOnly);
}

/** Free text (trimmed); unset, or the default. */
export function text(name: string, options: Common & { default: string }): Variable<string>;
export function text(name: string, options: Common): Variable<string | undefined>;
export function text(name: string, options: Common & { default?: string }): Variable<string | undefined> {
  const fallback = options.default;
  return declare(name, options, options.secret ? 'secret text' : 'text', fallback === undefined ? undefined : code(fallback),
    (reader) => reader.string(name) ?? fallback);
}

/** `http:` + `https:` → "http(s)"; `postgres:` + `postgresql:` → "postgres(ql)". */
function schemes(protocols: readonly string[]): string {
  const names = protocols.map((protocol) => protocol.replace(/:$/, ''));
  const parts: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const next = names[i + 1];
    if (next !== undefined && next.startsWith(names[i])) {
      parts.push(`${names[i]}(${next.slice(names[i].length)})`);
      i++;
    } else {
      parts.push(names[i]);
    }
  }
  return parts.join(' or ');
}

/** A URL with one of the given schemes; a trailing slash is removed. */
export function url(name: string, options: Common & { protocols: readonly string[]; default: string }): Variable<string>;
export function url(name: string, options: Common & { protocols: readonly string[] }): Variable<string | undefined>;
export function url(name: string, options: Common & { protocols: readonly string[]; default?: string }): Variable<string | undefined> {
  const protocols = [...options.protocols];
  const fallback = options.default;
  return declare(name, options, `${schemes(protocols)} URL`, fallback === undefined ? undefined : code(fallback),
    (reader) => (fallback === undefined ? reader.url(name, undefined, protocols) : reader.url(name, fallback, protocols)));
}

/** A directory, relative to the project unless absolute; values starting with one of `verbatim` are kept as they are. */
export function directory(name: string, options: Common & { default: string; verbatim?: string }): Variable<string> {
  const { verbatim } = options;
  return declare(name, options, verbatim === undefined ? 'directory' : `directory, or ${code(verbatim)}…`, code(options.default),
    (reader, context) => {
      const value = reader.string(name) ?? options.default;
      return verbatim !== undefined && value.startsWith(verbatim) ? value : path.resolve(context.projectRoot, value);
    });
}

/** A file, relative to the project unless absolute. */
export function file(name: string, options: Common & { default: string }): Variable<string> {
  return declare(name, options, 'file', code(options.default),
    (reader, context) => path.resolve(context.projectRoot, reader.string(name) ?? options.default));
}

/** One of a fixed list of words. */
export function choice<const T extends string>(name: string, options: Common & { values: readonly T[]; default: T; inTest?: T }): Variable<T> {
  const { values, inTest } = options;
  const listed = values.map(code);
  return declare(name, options, `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}`, defaultWithTest(options.default, inTest),
    (reader, context) => reader.oneOf(name, values, withTestDefault(options.default, inTest, context)));
}

/** A comma-separated list of http(s) origins (scheme, host, optional port; no path). */
export function origins(name: string, options: Common & { default: readonly string[] }): Variable<readonly string[]> {
  return declare(name, options, 'comma-separated http(s) origins', options.default.map(code).join(', '),
    (reader) => Object.freeze(reader.origins(name, [...options.default])));
}

/** One http(s) origin. */
export function origin(name: string, options: Common & { default: string }): Variable<string> {
  return declare(name, options, 'http(s) origin', code(options.default), (reader) => {
    const value = reader.origins(name, [options.default])[0];
    if (reader.string(name)?.includes(',')) reader.problems.push(`${name} must be a single origin`);
    return value;
  });
}

/** A comma-separated list of lower-case DNS host names (no scheme, port or wildcard). */
export function hostnames(name: string, options: Common & { default: readonly string[] }): Variable<readonly string[]> {
  return declare(name, options, 'comma-separated host names', options.default.map(code).join(', '),
    (reader) => Object.freeze(reader.hostnames(name, [...options.default])));
}

/** One lower-case DNS host name. */
export function hostname(name: string, options: Common & { default: string }): Variable<string> {
  return declare(name, options, 'host name', code(options.default), (reader) => reader.hostname(name, options.default));
}

/** A PEM public key for ES256 (EC P-256) or RS256 (RSA ≥ 2048 bits); `\n` escapes allowed. */
export function publicKey(name: string, options: Common): Variable<string | undefined> {
  return declare(name, options, 'PEM public key, EC P-256 or RSA ≥ 2048 bits', undefined, (reader) => reader.publicKey(name));
}

/** Reverse-proxy hops to trust: 0 to 10, `true` (one) or `false` (none). */
export function proxyHops(name: string, options: Common): Variable<number> {
  return declare(name, options, 'integer 0–10, true (1) or false (0)', code(0), (reader) => reader.proxyHops(name));
}

/** Declarations of one area, in the order the tables list them. */
export interface VariableGroup<V extends Record<string, Variable<unknown>> = Record<string, Variable<unknown>>> {
  readonly title: string;
  readonly variables: V;
}

export function group<V extends Record<string, Variable<unknown>>>(title: string, variables: V): VariableGroup<V> {
  return Object.freeze({ title, variables: Object.freeze(variables) });
}

/** The configuration object the declarations fill: each key is a Config field, typed by what its declaration reads. */
export type ValuesOf<V extends Record<string, Variable<unknown>>> = { readonly [K in keyof V]: V[K] extends Variable<infer T> ? T : never };
