/**
 * NUL characters (U+0000) in client input. PostgreSQL cannot store them in `text` or `jsonb`, so a string holding
 * one would turn a client's bad input into a database error (a 500, an INTERNAL_ERROR event). Every edge refuses
 * them before any handler runs: REST bodies, query strings and paths (http/input-guard.ts, VALIDATION_FAILED), the
 * matchmaking options (http/matchmaker-errors.ts) and room messages from /ws and SDK clients (INVALID_PAYLOAD).
 */

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Where the first string (value or object key) holding a NUL is in a parsed JSON value: its dotted path ('' for
 * the value itself), or undefined when there is none. Iterative, so deeply nested input cannot exhaust the stack.
 * Every /ws and SDK message passes here, so the paths are only built once a NUL is known to be there.
 */
export function findNulCharacter(value: unknown): string | undefined {
  return holdsNul(value) ? nulPath(value) : undefined;
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) stack.push(current[i]);
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (key.includes('\u0000')) return true;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

function nulPath(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: join(path, String(i)) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        if (key.includes('\u0000')) return join(path, key.replaceAll('\u0000', '\\u0000'));
        stack.push({ value: inner, path: join(path, key) });
      }
    }
  }
  return undefined;
}
