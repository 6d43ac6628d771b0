/**
 * The matchmaking routes (`POST /matchmake/:method/:room`, served by Colyseus' own router, not Express) answer
 * refusals as problem details like every other route: a 4xx with a stable code for a client fault, never
 * Colyseus' internal 52x matchmaking codes. Two parts:
 * - `installMatchmakerRefusals` replaces the controller's `invokeMethod`: it checks the method and the options
 *   (a JSON object without NUL characters), calls the matchmaker and turns whatever it throws into a
 *   `ServerError(status, "CODE: message")`, the form Colyseus' router answers: a refusal (GameError, AuthError
 *   included) with the status of the shared code → status table (src/game/refusal.ts), a room's JoinRefusal
 *   (rooms/game-error.ts) with its own.
 * - `matchmakerProblemResponse` (the router's `onResponse`) rewrites every error response of that router into
 *   `application/problem+json`. The body keeps an `error` member ("CODE: message"): the Colyseus SDK reads it as
 *   the message of the `MatchMakeError` it rejects with (whose `code` is the HTTP status).
 * - World entries and `reconnect` are world membership (rooms/entry/sdk-entry.ts): the same world choice as a
 *   /ws entry, and a reconnection authorised for the bearer token's account only (rooms/entry/reconnect-grants.ts).
 * - `limitMatchmakerBodies` reads matchmaking bodies with the REST API's JSON body limit (413 above it).
 */
import type { Server as HttpServer, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ErrorCode, matchMaker, ServerError, type AuthContext } from '@colyseus/core';
import express from 'express';
import { GameError, refusalStatus } from '../game/refusal.ts';
import { JoinRefusal } from '../../rooms/game-error.ts';
import { enterWorld, isWorldEntry, reconnectOwnSeat } from '../../rooms/entry/sdk-entry.ts';
import type { Logger } from '../logger.ts';
import { isDatabaseUnreachable } from '../db/unreachable.ts';
import { findNulCharacter, NUL_MESSAGE } from '../nul-characters.ts';
import { BODY_PARSER_ERRORS } from './errors.ts';
import { problemBody } from './problem.ts';

type Controller = typeof matchMaker.controller;
type MatchmakeMethod = (target: string, options: unknown, auth: unknown) => Promise<unknown>;

const CODED = /^([A-Z][A-Z0-9_]+): (.*)$/s;

/** A refusal the matchmaking route answers with `status` (the code's, by default); the message carries the code. */
function refusal(code: string, message: string, status: number = refusalStatus(code)): ServerError {
  return new ServerError(status, `${code}: ${message}`);
}

/** Stable codes for statuses a refusal may carry without one (e.g. Colyseus' own 503 while shutting down). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'AUTH_REQUIRED',
  403: 'FORBIDDEN',
  404: 'ROOM_NOT_FOUND',
  409: 'ROOM_LOCKED',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** What the matchmaker (or a room's onAuth/onCreate) threw, as a coded refusal with an HTTP status. */
export function classifyMatchmakerError(error: unknown, method: string, target: string, logger: Logger): ServerError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof GameError) return refusal(error.code, error.message);
  if (error instanceof JoinRefusal && error.code >= 400 && error.code < 500) return refusal(error.refusalCode, error.detail, error.code);
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'SeatReservationError') {
    if (/already full/.test(message)) return refusal('ROOM_LOCKED', 'The room is full');
    return refusal('SERVICE_UNAVAILABLE', 'The room is not reachable right now; try again');
  }
  if (typeof code === 'number') {
    if (code >= 400 && code < 500) {
      return CODED.test(message) ? new ServerError(code, message) : refusal(CODE_BY_STATUS[code] ?? 'BAD_REQUEST', message, code);
    }
    switch (code) {
      case ErrorCode.MATCHMAKE_NO_HANDLER:
        return refusal('UNKNOWN_ROOM_TYPE', `There is no room type "${target.slice(0, 64)}"`);
      case ErrorCode.MATCHMAKE_INVALID_CRITERIA:
        return refusal('ROOM_NOT_FOUND', `There is no open "${target.slice(0, 64)}" room to join`);
      case ErrorCode.MATCHMAKE_INVALID_ROOM_ID:
        if (/is locked$/.test(message)) return refusal('ROOM_LOCKED', 'The room is locked: it is full, or private to its members');
        return refusal('ROOM_NOT_FOUND', method === 'reconnect' ? 'The room to reconnect to no longer exists' : 'No such room');
      case ErrorCode.MATCHMAKE_EXPIRED:
        return refusal('RECONNECTION_EXPIRED', 'The reconnection token is invalid or its grace period has ended');
      case ErrorCode.AUTH_FAILED:
        return refusal('FORBIDDEN', 'You may not join this room');
      case 503:
        return refusal('SERVICE_UNAVAILABLE', 'The server is shutting down; reconnect shortly');
    }
  }
  // What the cluster's weather throws (docs/scaling.md): the database or Redis cut off, a process gone. Nothing was
  // reserved; the client may try again.
  if (isDatabaseUnreachable(error)) return refusal('WORLD_UNAVAILABLE', 'The world cannot reach its database right now; try again shortly');
  if (name === 'MaxRetriesPerRequestError' || /^Connection is closed|is not available\.?$/.test(message)) {
    logger.warn({ method, target: target.slice(0, 64), reason: message.slice(0, 120) }, 'matchmaking could not reach the cluster');
    return refusal('SERVICE_UNAVAILABLE', 'The server cannot reach the process of that world right now; try again shortly');
  }
  logger.error({ err: error, method, target: target.slice(0, 64) }, 'matchmaking failed');
  return refusal('INTERNAL_ERROR', 'An unexpected error occurred');
}

/** Checks a matchmaking call before the matchmaker sees it: method, target, options. */
function checkCall(controller: Controller, method: string, target: string, options: unknown): void {
  if (!controller.exposedMethods.includes(method)) throw refusal('FORBIDDEN', `The matchmaking method "${method.slice(0, 32)}" is not allowed`);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw refusal('INVALID_REQUEST', 'The matchmaking body must be a JSON object of join options');
  }
  const nul = findNulCharacter({ target, options });
  if (nul !== undefined) throw refusal('INVALID_PAYLOAD', `Invalid matchmaking request at ${nul}: ${NUL_MESSAGE}`);
  if (method === 'reconnect') {
    const token = (options as { reconnectionToken?: unknown }).reconnectionToken;
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) {
      throw refusal('INVALID_REQUEST', 'Reconnect with { reconnectionToken } as given when joining');
    }
  }
}

let installedLogger: Logger | undefined;

/** The controller's `invokeMethod`, as installed: checks the call, maps whatever the matchmaker throws. */
async function invokeMethod(this: Controller, method: string, target: string, options: unknown = {}, auth?: unknown): Promise<unknown> {
  checkCall(this, method, target, options);
  try {
    // Entering a world and reconnecting are world membership (rooms/entry/sdk-entry.ts).
    if (method === 'reconnect') return await reconnectOwnSeat(target, options as { reconnectionToken: string }, auth as AuthContext);
    if (isWorldEntry(method, target)) return await enterWorld(options as Record<string, unknown>, auth as AuthContext);
    return await (matchMaker as unknown as Record<string, MatchmakeMethod>)[method](target, options, auth);
  } catch (error) {
    throw classifyMatchmakerError(error, method, target, installedLogger!);
  }
}

/**
 * Installs `invokeMethod` on the matchmaking controller (a process-wide singleton, so the latest server's logger
 * is used). It is the only code that replaces it, and it reads `exposedMethods` (trimmed by the origin policy,
 * cors.ts) on each call, so the two may be installed in either order.
 */
export function installMatchmakerRefusals(logger: Logger): void {
  installedLogger = logger;
  matchMaker.controller.invokeMethod = invokeMethod as Controller['invokeMethod'];
}

/**
 * The matchmaking router's `onResponse`: an error response (its JSON body `{code, error}` or none) becomes a
 * problem-details response with the same status, or 400 for a status that is not an HTTP one.
 */
export async function matchmakerProblemResponse(response: Response): Promise<Response | undefined> {
  if (response.status < 400) return undefined;
  let text = '';
  try {
    const body = (await response.clone().json()) as { error?: unknown; message?: unknown };
    text = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : '';
  } catch {
    // no JSON body (e.g. Colyseus' bare 503 while shutting down)
  }
  let status = response.status >= 600 ? 400 : response.status;
  const coded = CODED.exec(text);
  let code: string;
  let detail: string;
  if (coded) {
    [, code, detail] = coded;
  } else if (text === 'malformed request body') {
    [status, code, detail] = [400, 'MALFORMED_JSON', 'The request body is not valid JSON'];
  } else {
    code = status >= 500 ? (status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR') : CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
    detail = status === 503 ? 'The server is shutting down; reconnect shortly' : status >= 500 ? 'An unexpected error occurred' : text || 'The request was refused';
  }
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/problem+json');
  headers.delete('content-length');
  return new Response(JSON.stringify(problemBody(status, code, detail, { error: `${code}: ${detail}` })), { status, headers });
}

function sendBodyRefusal(req: IncomingMessage, res: ServerResponse, error: { type?: unknown }): void {
  // body-parser's refusals of a matchmaking body, as the REST API answers them (errors.ts); anything else is bad JSON.
  const [status, code, detail] = BODY_PARSER_ERRORS[String(error.type)] ?? BODY_PARSER_ERRORS['entity.parse.failed'];
  const cors = matchMaker.controller.getCorsHeaders(new Headers(req.headers as Record<string, string>));
  const body = JSON.stringify(problemBody(status, code, detail, { error: `${code}: ${detail}` }));
  // The rest of an oversized body is not read: close the connection rather than drain it.
  res.writeHead(status, { ...cors, 'content-type': 'application/problem+json', connection: 'close' });
  res.end(body);
}

/**
 * Colyseus reads a matchmaking body whole, with no size limit. Wraps the server's one request listener (the
 * dispatcher of `routeAroundColyseus`, so call this right after it): a `POST /matchmake/…` body is read first
 * with the REST API's JSON limit (`limit`), whatever its content type, and handed on parsed (Colyseus' router
 * takes a `req.body` as it is); over the limit it is a 413 PAYLOAD_TOO_LARGE problem, and bad JSON a 400
 * MALFORMED_JSON, before the matchmaker sees anything.
 */
export function limitMatchmakerBodies(server: HttpServer, limit: string): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected one request listener, found ${listeners.length}`);
  const [dispatch] = listeners;
  const readJson = express.json({ limit, strict: false, type: () => true });
  server.removeListener('request', dispatch);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/matchmake/')) return dispatch.call(server, req, res);
    readJson(req as express.Request, res as express.Response, (error?: unknown) => {
      if (error) return sendBodyRefusal(req, res, error as { type?: unknown });
      // Colyseus' router re-reads a string `req.body` as raw text: keep a JSON string a JSON string.
      const parsed = req as IncomingMessage & { body?: unknown };
      if (typeof parsed.body === 'string') parsed.body = JSON.stringify(parsed.body);
      dispatch.call(server, req, res);
    });
  });
}
