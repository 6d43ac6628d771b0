/**
 * One check for every REST route, after the body parser: a NUL character (U+0000) anywhere in the path, the query
 * or the JSON body is refused with 400 VALIDATION_FAILED before any route runs (PostgreSQL cannot store it, so it
 * would otherwise surface as a 500). See src/nul-characters.ts.
 */
import type { RequestHandler } from 'express';
import { findNulCharacter, NUL_MESSAGE } from '../nul-characters.ts';
import { GameError } from '../game/refusal.ts';

/** `%00` in the raw path decodes to NUL in a path parameter. */
const ENCODED_NUL = /%00/i;

export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const refuse = (where: 'path' | 'query' | 'body', path: string) => next(new GameError('VALIDATION_FAILED',
    `The request ${where === 'path' ? 'path is' : where === 'query' ? 'query is' : 'body is'} not valid`,
    { errors: [{ in: where, path, message: NUL_MESSAGE }] }));
  const url = req.originalUrl ?? req.url;
  // A NUL can only reach the path or the parsed query through the raw URL: look there first, so the common request
  // (none) never pays for parsing the query (Express 5 parses it on every read of req.query).
  if (ENCODED_NUL.test(url) || url.includes('\u0000')) {
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    if (ENCODED_NUL.test(rawPath) || rawPath.includes('\u0000')) return refuse('path', '');
    return refuse('query', findNulCharacter(req.query) ?? '');
  }
  const inBody = req.body === undefined ? undefined : findNulCharacter(req.body);
  if (inBody !== undefined) return refuse('body', inBody);
  next();
};
