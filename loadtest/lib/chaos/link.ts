/**
 * A network link the chaos harness controls: a loopback TCP proxy (tcp-proxy.js) between one server process and
 * something it talks to (PostgreSQL, Redis, or the other processes through its INTERNAL_ADDRESS). A partition is the
 * link not forwarding, in one of two ways:
 * - `drop`: every open connection is reset and new ones are refused (the peer is gone, or restarted);
 * - `blackhole`: connections are accepted and kept, but no byte passes either way (packets dropped without a word).
 *   When it heals, the bytes it held are delivered in order, as TCP retransmission does once a network comes back.
 * Loopback only: it listens on 127.0.0.1 and forwards to 127.0.0.1.
 */
import TCPProxy from 'tcp-proxy.js';

export type LinkState = 'open' | 'drop' | 'blackhole';

export class Link {
  readonly name: string;
  readonly targetPort: number;
  private proxy: TCPProxy | null = null;
  private listenPort = 0;
  private state: LinkState = 'open';
  /** Settles when a black hole heals; every chunk waits on it meanwhile. */
  private hold: { promise: Promise<undefined>; release: () => void } | null = null;

  constructor(name: string, targetPort: number) {
    this.name = name;
    this.targetPort = targetPort;
  }

  /** The port the server connects to. */
  get port(): number {
    return this.listenPort;
  }

  get current(): LinkState {
    return this.state;
  }

  async start(): Promise<void> {
    await this.listen();
  }

  private async listen(): Promise<void> {
    const proxy = new TCPProxy({ host: '127.0.0.1', port: this.listenPort });
    // One close listener per connection: a pool of connections is not a leak.
    proxy.setMaxListeners(0);
    const pass = () => this.hold?.promise;
    const server = await proxy.createProxy({ forwardPort: this.targetPort, forwardHost: '127.0.0.1', interceptor: { client: pass, server: pass } });
    server.on('error', () => undefined);
    this.listenPort ||= (server.address() as { port: number }).port;
    this.proxy = proxy;
  }

  /** Cuts the link in the given way (a no-op when it already is). */
  async cut(mode: 'drop' | 'blackhole'): Promise<void> {
    if (this.state !== 'open') await this.heal();
    this.state = mode;
    if (mode === 'drop') {
      const proxy = this.proxy;
      this.proxy = null;
      await proxy?.end();
    } else {
      let release!: () => void;
      const promise = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
      this.hold = { promise, release };
    }
  }

  /** Forwards again; a dropped link listens again on the same port. */
  async heal(): Promise<void> {
    const was = this.state;
    this.state = 'open';
    if (was === 'drop' && !this.proxy) {
      // The port was ours a moment ago; retry briefly if the kernel has not let go of it yet.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          await this.listen();
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      throw new Error(`link ${this.name} could not listen again on ${this.listenPort}`);
    }
    if (was === 'blackhole') {
      const hold = this.hold;
      this.hold = null;
      hold?.release();
    }
  }

  async stop(): Promise<void> {
    this.hold?.release();
    this.hold = null;
    const proxy = this.proxy;
    this.proxy = null;
    await proxy?.end();
  }
}
