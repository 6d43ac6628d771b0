/** Probes and public client configuration: GET /health, GET /status, GET /env.js. Answered from memory. */
import { Router } from 'express';
import type { Config } from '../../config.ts';
import { SERVICE_VERSION } from '../../version.ts';

export interface LiveStatus {
  playersOnline(): number;
  rooms(): number;
  /**
   * The worlds this process runs: number, players, tick p99, its lease (epoch; held or suspended), and its admission
   * state (open, busy, full, queueing) and login queue length (docs/worlds.md).
   */
  worlds(): Array<{ world: number; players: number; tickP99Ms: number | null; epoch: number | null; lease: string; admission: string; queue: number }>;
  /** This process' headroom for new logins (docs/worlds.md "When the server is full"). */
  admission(): { busy: boolean; reason?: string; loopLagP99Ms: number };
  /** This process' Colyseus process id (the `processId` of its room listings). */
  processId(): string;
}

export function healthRouter(config: Config, live: LiveStatus): Router {
  const router = Router();
  const startedAt = Date.now();

  router.get('/health', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok', timestamp: new Date().toISOString(), version: SERVICE_VERSION });
  });

  router.get('/status', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({
      status: 'ok',
      uptime: Math.round((Date.now() - startedAt) / 1000),
      playersOnline: live.playersOnline(),
      rooms: live.rooms(),
      processId: live.processId(),
      worlds: live.worlds(),
      admission: live.admission(),
      commitHash: config.commitHash,
      version: SERVICE_VERSION,
    });
  });

  const script = envScript(config);
  router.get('/env.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/javascript').send(script);
  });

  return router;
}

/** The public client configuration: only PUBLIC_* values and harmless build facts, never a secret. */
export function publicClientConfig(config: Config): Record<string, string | null> {
  return {
    PUBLIC_IDP_APP_ID: config.publicIdpAppId ?? null,
    PUBLIC_CDN_URL: config.publicCdnUrl,
    PUBLIC_API_URL: config.publicApiUrl,
    PUBLIC_WS_URL: config.publicWsUrl,
    PUBLIC_APP_URL: config.publicAppUrl ?? null,
    VOICE_URL: config.voiceUrl ?? null,
    NODE_ENV: config.nodeEnv,
    VERSION: SERVICE_VERSION,
    COMMIT_HASH: config.commitHash,
  };
}

function envScript(config: Config): string {
  // `<` is escaped so the script can also be inlined into an HTML page safely.
  const json = JSON.stringify(publicClientConfig(config)).replaceAll('<', '\\u003c');
  return `window.__GAME_ENV__ = Object.freeze(${json});\n`;
}
