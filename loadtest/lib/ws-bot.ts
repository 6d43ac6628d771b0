/**
 * A minimal /ws JSON client for load bots: send events, await the next matching one (every wait bounded), and
 * enter the world with a seeded character.
 */
import WebSocket from 'ws';

export interface BotEvent {
  type: string;
  // Payloads are read field by field by the bots.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

export const STEP_TIMEOUT_MS = 10_000;
const BACKLOG = 256;

export class BotSocket {
  private readonly ws: WebSocket;
  private readonly backlog: BotEvent[] = [];
  private waiters: Array<{ match: (e: BotEvent) => boolean; resolve: (e: BotEvent) => void }> = [];
  /** Called for every event before waiters see it (bots keep their own view of inventory and so on). */
  onEvent: (event: BotEvent) => void = () => undefined;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (raw) => {
      const text = raw.toString();
      // world:update frames are many and no bot waits for them: skip parsing them.
      if (text.startsWith('{"type":"world:update"')) return;
      const event = JSON.parse(text) as BotEvent;
      this.onEvent(event);
      const waiter = this.waiters.find((w) => w.match(event));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      } else if (this.backlog.push(event) > BACKLOG) {
        this.backlog.shift();
      }
    });
    ws.on('error', () => undefined);
  }

  static open(url: string): Promise<BotSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: STEP_TIMEOUT_MS });
      ws.once('open', () => resolve(new BotSocket(ws)));
      ws.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(type: string, data: unknown): void {
    if (this.isOpen) this.ws.send(JSON.stringify({ type, data }));
  }

  /** The next event of `type` matching `match` (including one that already arrived and was not consumed). */
  next(type: string, match: (data: BotEvent['data']) => boolean = () => true, timeoutMs = STEP_TIMEOUT_MS): Promise<BotEvent> {
    return this.nextOf([type], match, timeoutMs);
  }

  /** The next event of any of `types` matching `match`. */
  nextOf(types: string[], match: (data: BotEvent['data']) => boolean = () => true, timeoutMs = STEP_TIMEOUT_MS): Promise<BotEvent> {
    const predicate = (e: BotEvent) => types.includes(e.type) && match(e.data);
    const index = this.backlog.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.backlog.splice(index, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for ${types.join(' or ')}`));
      }, timeoutMs);
      const done = (e: BotEvent) => {
        clearTimeout(timer);
        resolve(e);
      };
      this.waiters.push({ match: predicate, resolve: done });
    });
  }

  /** Forgets events nobody waited for (e.g. before starting a new exchange). */
  clearBacklog(): void {
    this.backlog.length = 0;
  }

  close(): void {
    this.ws.close();
  }
}

/** Opens /ws, authenticates with the seeded token and enters the world as the character. */
export async function enterWorld(wsUrl: string, who: { characterId: string; token: string }): Promise<BotSocket> {
  const socket = await BotSocket.open(`${wsUrl}/ws`);
  try {
    socket.send('authenticate', { token: who.token, characterId: who.characterId });
    const auth = await socket.next('authResult');
    if (!auth.data.success) throw new Error(`authentication failed: ${JSON.stringify(auth.data)}`);
    const joined = await socket.nextOf(['world:joined', 'error'], (d) => d.event === undefined || d.event === 'world:enter' || d.event === 'authenticate');
    if (joined.type === 'error') throw new Error(`could not enter the world: ${joined.data.code}`);
    return socket;
  } catch (error) {
    socket.close();
    throw error;
  }
}
