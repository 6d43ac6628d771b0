/** What the chaos bots share: where they may enter, the clock of the run, and the counters they fill in. */
import type { ServerNode } from './cluster.ts';
import type { SessionStats } from './sessions.ts';
import type { Violations } from './violations.ts';

export interface ChaosStats {
  /** Operations acknowledged by the server, per kind. */
  acked: Record<string, number>;
  /** Refusals (state unchanged), per code. */
  refused: Record<string, number>;
  timeouts: number;
  entries: number;
  sessions: SessionStats;
}

export interface BotEnv {
  /** The processes a client may try now. */
  reachable(): ServerNode[];
  /** World numbers 1…worlds are the standing worlds. */
  worlds: number;
  /** The bots stop starting operations at this instant (moved while the run drains). */
  stopAt(): number;
  opTimeoutMs: number;
  entryTimeoutMs: number;
  violations: Violations;
  stats: ChaosStats;
}

/** A seeded character a chaos bot plays. */
export interface ChaosCharacter {
  id: string;
  name: string;
  accountId: string;
  token: string;
  home: { x: number; z: number };
  /** Characters it may send private messages to (friends both ways). */
  friends: string[];
}

export function bump(map: Record<string, number>, key: string, n = 1): void {
  map[key] = (map[key] ?? 0) + n;
}

/** A process to enter through, avoiding `avoid` (the one a failed session was on) when another is there. */
export function pickEntry(env: BotEnv, rnd: () => number, avoid?: string): ServerNode | undefined {
  const all = env.reachable();
  const others = all.filter((node) => node.name !== avoid);
  const pool = others.length > 0 ? others : all;
  return pool.length === 0 ? undefined : pool[Math.floor(rnd() * pool.length)];
}

/** A refusal of the server (an `error` answering the event): the state did not change. */
export class Refused extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

/**
 * What a game client does when its session goes quiet: it asks the REST API for its world (`GET /api/v1/world`)
 * through another process. Fire and forget, bounded by 20 s; counted like any operation.
 */
export function askForMyWorld(env: BotEnv, rnd: () => number, token: string, avoid: string): void {
  const node = pickEntry(env, rnd, avoid);
  if (!node) return;
  void fetch(`${node.baseUrl}/api/v1/world`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(20_000) })
    .then(async (response) => {
      const body = await response.json().catch(() => ({})) as { code?: string };
      if (response.status === 200) bump(env.stats.acked, 'rest:world');
      else bump(env.stats.refused, body.code ?? `HTTP_${response.status}`);
    }, () => bump(env.stats.refused, 'REST_TIMEOUT'));
}
