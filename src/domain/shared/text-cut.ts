/**
 * Cutting text the service stores (what may be stored at all: isStorableText in
 * validation.ts). Lengths are counted as JavaScript counts them (UTF-16 code units), because
 * that is how every documented limit is checked; but a cut never falls inside a character. A
 * cut between the two halves of a surrogate pair leaves a lone surrogate, which PostgreSQL
 * refuses in JSON (a frame, a card) and replaces in text, so the cut is made on user-perceived
 * characters (grapheme clusters: an emoji with its modifiers, a flag, a letter with its
 * accents stay whole).
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of `text` that is at most `max` code units long and ends on a whole character. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  // A single cluster longer than the limit (a long run of combining marks): fall back to code points.
  if (end === 0) {
    for (const ch of text) {
      if (end + ch.length > max) break;
      end += ch.length;
    }
  }
  return text.slice(0, end);
}

/** `text` itself when it fits in `max` code units, otherwise its cut followed by an ellipsis (the whole at most `max`). */
export function clipText(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  return `${cutText(text, max - ellipsis.length)}${ellipsis}`;
}
