/** A /ws JSON test client over a real socket: send events, await events, observe the close code. */
import WebSocket from 'ws';

export interface WsEvent {
  type: string;
  // Event payloads are checked field by field in the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

/** An event as a timeout message names it: refusals with their code. */
function describeEvent(event: WsEvent): string {
  const code = (event.data as { code?: unknown } | undefined)?.code;
  return event.type === 'error' && typeof code === 'string' ? `error ${code}` : event.type;
}

export class JsonWsClient {
  readonly socket: WebSocket;
  readonly events: WsEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ match: (e: WsEvent) => boolean; resolve: (e: WsEvent) => void }> = [];

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw, isBinary) => {
      // docs/protocol.md: every server frame is JSON text (a browser would get a Blob for a binary one). Thrown here,
      // it fails the test that is running.
      if (isBinary) throw new Error(`the server sent a binary frame: ${raw.toString().slice(0, 80)}`);
      const event = JSON.parse(raw.toString()) as WsEvent;
      this.events.push(event);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(event)) return true;
        w.resolve(event);
        return false;
      });
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static connect(wsUrl: string, headers: Record<string, string> = {}): Promise<JsonWsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${wsUrl}/ws`, { headers });
      const client = new JsonWsClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(type: string, data: unknown = {}): void {
    this.socket.send(JSON.stringify({ type, data }));
  }

  sendRaw(payload: string | Buffer, binary = false): void {
    this.socket.send(payload, { binary });
  }

  /** Resolves with the first event of this type that matches, among those received from index `from` on. */
  waitFor(type: string, match: (data: WsEvent['data']) => boolean = () => true, timeoutMs = 5_000, from = 0): Promise<WsEvent> {
    const predicate = (e: WsEvent) => e.type === type && match(e.data);
    const seen = this.events.slice(from).find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}; got ${this.events.map(describeEvent).join(', ')}`)), timeoutMs);
      this.waiters.push({ match: predicate, resolve: (e) => { clearTimeout(timer); resolve(e); } });
    });
  }

  /** Resolves with the next matching event received after this call. */
  next(type: string, match: (data: WsEvent['data']) => boolean = () => true, timeoutMs = 5_000): Promise<WsEvent> {
    return this.waitFor(type, match, timeoutMs, this.events.length);
  }

  close(): void {
    this.socket.close();
  }
}
