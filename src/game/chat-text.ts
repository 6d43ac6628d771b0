/**
 * What of a chat text can be seen (pure; issue #17 item 11). Public chat and private messages both pass through
 * `sanitizeChat` (social.ts), which uses these two steps after its control-character clean-up:
 *
 *  - `stripInvisible` removes what draws nothing but still makes a "message": default-ignorable code points
 *    (soft hyphens, Hangul fillers — which Unicode files as letters —, tag characters, joiners in a row, stray
 *    variation selectors…), the blank Braille pattern, combining marks with no base, and combining marks past
 *    `MAX_MARKS_PER_BASE` on one base (a 150-mark stack draws over the lines around it). What real text needs
 *    stays: one zero-width joiner or non-joiner between two visible characters (emoji sequences, Persian and
 *    Indic scripts), one variation selector after a base (❤️), tag characters inside a flag sequence (🏴 + tags +
 *    cancel tag: the flags of England, Scotland, Wales).
 *  - `hasVisibleContent` asks whether anything is left to see: a letter, digit, punctuation or symbol.
 */

/** Combining marks kept on one base character: enough for stacked diacritics and Indic or Tibetan clusters. */
export const MAX_MARKS_PER_BASE = 4;

const FLAG_TAG_SEQUENCE = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}/gu;
const FLAG_PLACEHOLDER = '\u{F0000}'; // private use: never left in the text (social.ts removes those before)
const JOINER = '[\\u200c\\u200d]';
const SELECTOR = '[\\ufe00-\\ufe0f\\u{e0100}-\\u{e01ef}]';
/** Default-ignorable code points except the joiners and selectors handled by position below, + Braille blank. */
const IGNORABLE = new RegExp(`(?!${JOINER}|${SELECTOR})[\\p{Default_Ignorable_Code_Point}\\u2800]`, 'gu');
const JOINER_RUN = new RegExp(`${JOINER}{2,}`, 'gu');
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
/** A character a joiner or selector may attach to: visible, or itself a combining mark on something visible. */
const ATTACHABLE = /[\p{L}\p{N}\p{P}\p{S}\p{M}]/u;
const MARK = /\p{M}/u;

function isSelector(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** The text (NFC) without invisible padding, with marks capped per base; may come back empty. */
export function stripInvisible(text: string): string {
  const flags: string[] = [];
  let rest = text.replace(FLAG_TAG_SEQUENCE, (flag) => {
    flags.push(flag);
    return FLAG_PLACEHOLDER;
  });
  rest = rest.replace(IGNORABLE, '').replace(JOINER_RUN, (run) => run[0]);

  const out: string[] = [];
  let marksOnBase = 0;
  const chars = [...rest];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const previous = out.length > 0 ? out[out.length - 1] : '';
    if (c === '\u200c' || c === '\u200d') {
      // Only between two characters that draw something.
      if (ATTACHABLE.test(previous) && i + 1 < chars.length && VISIBLE.test(chars[i + 1])) out.push(c);
      continue;
    }
    if (isSelector(c)) {
      // One selector, straight after what it selects a form of. It is a mark too: it counts toward the cap.
      if (previous && !isSelector(previous) && ATTACHABLE.test(previous) && marksOnBase < MAX_MARKS_PER_BASE) {
        marksOnBase++;
        out.push(c);
      }
      continue;
    }
    if (MARK.test(c)) {
      const hasBase = previous !== '' && ATTACHABLE.test(previous);
      if (!hasBase || marksOnBase >= MAX_MARKS_PER_BASE) continue;
      marksOnBase++;
      out.push(c);
      continue;
    }
    marksOnBase = 0;
    out.push(c);
  }
  let flagIndex = 0;
  // Removing something between a letter and its mark can make a composable pair: compose it (never adds marks).
  return out.join('').replace(new RegExp(FLAG_PLACEHOLDER, 'gu'), () => flags[flagIndex++]).normalize('NFC');
}

/** True when the text holds at least one character that draws something (not only spaces and marks). */
export function hasVisibleContent(text: string): boolean {
  return VISIBLE.test(text);
}
