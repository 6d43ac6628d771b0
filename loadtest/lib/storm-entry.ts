/**
 * One login of an entry storm (loadtest/storm-bench.ts, docs/worlds.md "When the server is full"): a /ws socket
 * authenticates, then asks to enter a world (with or without `queue: true`) and records how long the server took to
 * give its first answer — in (`world:joined`), a place in line (`queue:position`) or a coded refusal — and, when it
 * queued, its first place and when it got in. It never walks: the players inside are the walkers.
 */
import WebSocket from 'ws';

export type FirstAnswer = 'joined' | 'queued' | string;

export interface StormOutcome {
  name: string;
  queue: boolean;
  /** What the server answered first, and how many ms after `world:enter` was sent (undefined: no answer yet). */
  answer?: FirstAnswer;
  answerMs?: number;
  /** Its first place in line, when it queued. */
  firstPosition?: number;
  /** When `world:joined` came (Date.now()). */
  joinedAt?: number;
  /** Why it never asked (the socket failed or authentication was refused). */
  failed?: string;
}

export class StormEntry {
  readonly outcome: StormOutcome;
  private socket: WebSocket | undefined;
  private askedAt = 0;
  private readonly joined: Array<() => void> = [];

  constructor(name: string, queue: boolean) {
    this.outcome = { name, queue };
  }

  /** Connects, authenticates and asks; resolves once the first answer came (or the socket failed), never rejects. */
  start(wsUrl: string, entry: { token: string; characterId: string; world: number }, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('no answer'), timeoutMs);
      const finish = (failed?: string) => {
        clearTimeout(timer);
        if (failed && this.outcome.answer === undefined && this.outcome.failed === undefined) this.outcome.failed = failed;
        resolve();
      };
      const socket = new WebSocket(`${wsUrl}/ws`, { perMessageDeflate: false });
      this.socket = socket;
      socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate', data: { token: entry.token } })));
      socket.on('message', (raw) => {
        const text = raw.toString();
        if (text.startsWith('{"type":"world:update"')) return;
        const event = JSON.parse(text) as { type: string; data: Record<string, unknown> };
        if (event.type === 'authResult') {
          if (event.data.success !== true) return finish(`auth: ${JSON.stringify(event.data.error)}`);
          this.askedAt = performance.now();
          socket.send(JSON.stringify({ type: 'world:enter', data: { characterId: entry.characterId, world: entry.world, ...(this.outcome.queue ? { queue: true } : {}) } }));
          return;
        }
        const first = this.outcome.answer === undefined;
        if (event.type === 'world:joined') {
          this.outcome.joinedAt = Date.now();
          if (first) this.answered('joined');
          for (const waiter of this.joined.splice(0)) waiter();
        } else if (event.type === 'queue:position') {
          this.outcome.firstPosition ??= Number(event.data.position);
          if (first) this.answered('queued');
        } else if (event.type === 'error' && event.data.event === 'world:enter') {
          if (first) this.answered(String(event.data.code));
        } else {
          return;
        }
        if (first) finish();
      });
      socket.on('error', (error) => finish(error.message));
      socket.on('close', () => finish('closed'));
    });
  }

  private answered(answer: FirstAnswer): void {
    this.outcome.answer = answer;
    this.outcome.answerMs = performance.now() - this.askedAt;
  }

  /** Resolves once it is in the world (at once if it is), or false after `timeoutMs`. */
  whenJoined(timeoutMs: number): Promise<boolean> {
    if (this.outcome.joinedAt !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.joined.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  stop(): void {
    this.socket?.close();
  }
}

/**
 * Queued logins that got in out of turn: pairs where one with a later first place joined before one with an earlier
 * place, beyond the `window` the server lets try at once (those may finish their entries in any order).
 */
export function outOfTurn(served: ReadonlyArray<{ firstPosition: number; joinedAt: number }>, window: number): number {
  const byJoin = [...served].sort((a, b) => a.joinedAt - b.joinedAt);
  let count = 0;
  for (let i = 0; i < byJoin.length; i++) {
    for (let j = i + 1; j < byJoin.length; j++) {
      if (byJoin[j].firstPosition + window < byJoin[i].firstPosition) count++;
    }
  }
  return count;
}
