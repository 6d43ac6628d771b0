/** The part of tcp-proxy.js' API the chaos harness uses (the package ships no types). */
declare module 'tcp-proxy.js' {
  import type { EventEmitter } from 'node:events';
  import type { Server } from 'node:net';

  /** Called for every chunk in one direction; a promise holds the chunk (and every later one) until it settles. */
  type Interceptor = (chunk: Buffer) => Buffer | Promise<Buffer | undefined> | undefined;

  interface ProxyOptions {
    forwardPort: number;
    forwardHost?: string;
    interceptor?: { client?: Interceptor; server?: Interceptor };
  }

  class TCPProxy extends EventEmitter {
    constructor(options: { host?: string; port: number });
    port: number;
    createProxy(options: ProxyOptions): Promise<Server>;
    /** Closes the listener and every connection through it. */
    end(): Promise<void>;
  }
  export default TCPProxy;
}
