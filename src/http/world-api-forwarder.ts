/**
 * Scale-out (docs/scaling.md): REST routes that read or steer the live world (players, characters, agents, voice,
 * the world snapshot) are answered by the process running the caller's world: the world of the caller's character
 * (character_worlds, through `whereAnswered`), or the world `?world=N` names. Another process forwards such a
 * request there unchanged, with the client's address signed as for relayed /ws sockets; that process answers it
 * itself (a signed request is never forwarded again) and skips the REST limit, which the entry process already
 * counted in the shared Redis. A caller in no world, a world running here, and routes that need no world
 * (authentication, static game data, the OpenAPI document, templates, the world list) are answered here.
 */
import http from 'node:http';
import type { Request, RequestHandler } from 'express';
import { requestAddress } from '../limits/client-address.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { RELAYED_ADDRESS_HEADER, RELAY_SIGNATURE_HEADER, relayedAddress, relaySignature } from '../cluster/ws-relay.ts';
import { sendProblem } from './problem.ts';

const ANSWERED_ANYWHERE = /^\/api\/(auth|data|template)(\/|$)|^\/api\/openapi\.json$|^\/api\/v1\/worlds$/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'proxy-connection', 'te', 'trailer']);
const FORWARD_TIMEOUT_MS = 15_000;

export function isWorldBoundApiPath(path: string): boolean {
  const lower = path.toLowerCase();
  return (lower === '/api' || lower.startsWith('/api/')) && !ANSWERED_ANYWHERE.test(lower);
}

export interface ForwarderOptions {
  cluster: Cluster;
  secret: string | undefined;
  /** The process running the world this request is about; undefined: no world (or unknown), answered here. */
  whereAnswered(req: Request): Promise<string | undefined>;
}

export function forwardWorldBoundApi({ cluster, secret, whereAnswered }: ForwarderOptions): RequestHandler {
  return async (req, res, next) => {
    if (!isWorldBoundApiPath(req.path) || relayedAddress(req, secret) !== undefined) return next();
    const processId = await whereAnswered(req).catch(() => undefined);
    const remote = processId === undefined ? undefined : await cluster.locate(processId).catch(() => undefined);
    if (!remote) return next();
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== RELAYED_ADDRESS_HEADER && name !== RELAY_SIGNATURE_HEADER) headers[name] = value;
    }
    if (secret) {
      const address = requestAddress(req);
      headers[RELAYED_ADDRESS_HEADER] = address;
      headers[RELAY_SIGNATURE_HEADER] = relaySignature(secret, address);
    }
    const [host, port] = splitAddress(remote.internalAddress);
    const upstream = http.request({ host, port, method: req.method, path: req.originalUrl, headers, timeout: FORWARD_TIMEOUT_MS }, (answer) => {
      const passed = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      res.writeHead(answer.statusCode ?? 502, passed);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      if (res.headersSent) return res.destroy();
      void cluster.recoverProcess(remote).catch(() => undefined);
      sendProblem(res, 503, 'WORLD_UNAVAILABLE', 'The world is moving to another server process; retry shortly');
    });
    req.pipe(upstream);
  };
}

function splitAddress(address: string): [string, number] {
  const index = address.lastIndexOf(':');
  return [address.slice(0, index).replace(/^\[|\]$/g, ''), Number(address.slice(index + 1))];
}
