/**
 * Development asset host: `npm run assets` serves $WORLD/assets (WORLD defaults to "world") on
 * ASSET_HOST_PORT (default 8080) with the spec's paths: /manifests, /models, /audio/music/{normal,combat},
 * /world and /health. Files carry ETags and answer If-None-Match with 304; dot-files are never served.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';

export const DEFAULT_ASSET_HOST_PORT = 8080;
const SERVED_FOLDERS = ['manifests', 'models', 'audio', 'world'] as const;

export interface AssetHostOptions {
  /** The assets folder, e.g. world/assets. */
  root: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
}

export function createAssetHostApp(root: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.set('Access-Control-Allow-Origin', '*');
    next();
  });
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', timestamp: new Date().toISOString() });
  });
  for (const folder of SERVED_FOLDERS) {
    app.use(
      `/${folder}`,
      express.static(join(root, folder), {
        dotfiles: 'ignore',
        index: false,
        redirect: false,
        fallthrough: true,
        setHeaders: (res) => res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate'),
      }),
    );
  }
  app.use((_req, res) => {
    res.status(404).type('application/problem+json').send(
      JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such asset.', code: 'NOT_FOUND' }),
    );
  });
  return app;
}

/** Starts the asset host; resolves once it listens. */
export function startAssetHost(options: AssetHostOptions): Promise<Server> {
  const app = createAssetHostApp(resolve(options.root));
  return new Promise((resolvePromise, reject) => {
    const server = app.listen(options.port, options.host ?? '127.0.0.1', (error?: Error) => {
      if (error) reject(error);
      else resolvePromise(server);
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.env.WORLD ?? 'world', 'assets');
  const port = Number(process.env.ASSET_HOST_PORT ?? DEFAULT_ASSET_HOST_PORT);
  const server = await startAssetHost({ root, port, host: process.env.ASSET_HOST_BIND ?? '127.0.0.1' });
  const address = server.address() as AddressInfo;
  console.log(`asset host serving ${root} on http://${address.address}:${address.port}`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
