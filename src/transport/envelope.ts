/** The /ws frame: one JSON object `{"type": "<event>", "data": {…}}` per text frame, both directions. */
import { findNulCharacter, NUL_MESSAGE } from '../nul-characters.ts';

export interface Envelope {
  type: string;
  data: Record<string, unknown>;
}

export type EnvelopeResult = { ok: true; envelope: Envelope } | { ok: false; code: 'MALFORMED_JSON' | 'INVALID_ENVELOPE' | 'INVALID_PAYLOAD'; message: string };

const EVENT_NAME = /^[A-Za-z][A-Za-z0-9:_-]{0,63}$/;

export function parseEnvelope(text: string): EnvelopeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'MALFORMED_JSON', message: 'The frame is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, code: 'INVALID_ENVELOPE', message: 'A frame must be a JSON object {"type", "data"}' };
  }
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (typeof type !== 'string' || !EVENT_NAME.test(type)) {
    return { ok: false, code: 'INVALID_ENVELOPE', message: '"type" must be an event name' };
  }
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    return { ok: false, code: 'INVALID_ENVELOPE', message: '"data" must be a JSON object when present' };
  }
  // A NUL character cannot reach the database: refused for every event, authenticate and world:enter included.
  const nul = findNulCharacter(data);
  if (nul !== undefined) return { ok: false, code: 'INVALID_PAYLOAD', message: `Invalid ${type} payload${nul ? ` at ${nul}` : ''}: ${NUL_MESSAGE}` };
  return { ok: true, envelope: { type, data: (data ?? {}) as Record<string, unknown> } };
}

export function encodeEnvelope(type: string, data: unknown): string {
  return JSON.stringify({ type, data });
}
