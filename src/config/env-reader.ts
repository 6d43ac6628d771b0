/**
 * The parsers behind the declarations of src/config/variables.ts: each reads one environment variable (trimmed; an
 * empty value counts as unset), returns its fallback when unset or bad, and records every bad value in `problems`
 * with a message naming the variable, so that loadConfig reports all of them together.
 */
import { createPublicKey } from 'node:crypto';

export type Env = Record<string, string | undefined>;

export class EnvReader {
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

export const HTTP = ['http:', 'https:'];
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
