/** Character display names: 1–12 characters of letters, digits, spaces, '-' and '_', no edge or double spaces. */

export const CHARACTER_NAME_MAX = 12;
const NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]| (?! ))*$/;

export type NameCheck = { ok: true; name: string } | { ok: false; code: 'INVALID_NAME'; message: string };

export function checkCharacterName(raw: unknown): NameCheck {
  if (typeof raw !== 'string') return { ok: false, code: 'INVALID_NAME', message: 'the name must be a string' };
  const name = raw.trim();
  if (name.length < 1 || name.length > CHARACTER_NAME_MAX) {
    return { ok: false, code: 'INVALID_NAME', message: `the name must be 1 to ${CHARACTER_NAME_MAX} characters` };
  }
  if (!NAME_PATTERN.test(name) || name.endsWith(' ')) {
    return { ok: false, code: 'INVALID_NAME', message: 'the name may hold letters, digits, single spaces, - and _' };
  }
  return { ok: true, name };
}
