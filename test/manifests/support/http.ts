import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export function listen(app: express.Express): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => {
      if (error) return reject(error);
      resolve(wrap(server));
    });
  });
}

export function wrap(server: Server): RunningServer {
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An app that records each request (method, path, If-None-Match) before handing it to `handler`. */
export function recordingApp(handler: RequestHandler | express.Express): { app: express.Express; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const app = express();
  app.use((req, _res, next) => {
    requests.push({ method: req.method, path: req.path, ifNoneMatch: req.get('if-none-match') ?? null });
    next();
  });
  app.use(handler);
  return { app, requests };
}

export interface RecordedRequest {
  method: string;
  path: string;
  ifNoneMatch: string | null;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose path is sent exactly as given (fetch would normalise `..` and encodings). */
export function rawRequest(baseUrl: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { connection: 'close', ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A base URL nothing listens on (a port that was just released). */
export async function unreachableUrl(): Promise<string> {
  const running = await listen(express());
  await running.close();
  return running.url;
}
