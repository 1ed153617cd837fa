import { statedStems, stemOf } from '../reading/intent-reader';
import { findAttributes } from '../matching/attributes.rules';
import type { Facets } from '../matching/facets.rules';
import { findPlaces } from '../matching/geo.rules';
import { STOPWORDS, tokenize } from '../matching/text.rules';

/**
 * Reading the other seat's standing proposal before accepting it. A proposal is free text: an
 * external agent may put conditions in it that no requirement check looks at ("in exchange
 * for 60% of the company and full control of the board"). Accepting agrees to everything it
 * says, so every statement must be read: each word must be one the rules understand (the
 * parties' names, the words of a negotiation, a place, a constraint value, an amount, or a
 * word either intent states), and what it states is then
 * checked with the requirements (evidence.rules.ts). A statement with anything else in it is
 * a term the rules cannot check: only the owner can judge it.
 *
 * Questions and `Answer:` lines are not terms (they are answered and read as answers), nor is
 * the introducer's note the hosted negotiator quotes (both seats read it already).
 */

/** Words of a negotiation itself, which state no term. */
const TALK = new Set(
  `proposal propose proposed proposing introduction introductions introduce introduced introducing between meet meeting met
call chat talk connect connecting agree agreed agreement accept accepted accepting deal checked check checks checking against intent
intents requirement requirements statement stated state states hold holds held offer offers offered offering seek seeks sought
ask asks asked answer answered question questions condition conditions term terms yes both each other side seat party parties
fit fits match matches matching welcome suggest suggests suggested exactly everything every fine works work stage round
rounds east west north south central downtown northeast northwest southeast southwest`
    .split(/\s+/)
    // As the tokeniser writes them (singular, lower case).
    .flatMap((w) => tokenize(w).map((t) => t.norm)),
);

/** What may follow an amount as its own token ("€1.5M" is read as "€1.5" and "M"). */
const SCALE = new Set(['k', 'm', 'b', 'bn', 'mn', 'thousand', 'million', 'billion']);

const ANSWER_LINE = /^\s*(?:a|answer)(?:\s*\([^)]*\))?\s*:/i;
const INTRODUCER_QUOTE = /^(.+?) introduced you: "(.*)"\s*$/;
const PERCENT = /\d+(?:[.,]\d+)?\s*%|\bper ?cent\b/i;

export interface ProposalParties {
  /** The names of the two seats and of the introducer, if any. */
  names: string[];
  mine: Facets;
  theirs: Facets;
  /** The introducer's note, which the hosted negotiator may quote. */
  introducerContext: string | null;
}

/** The words of one statement the rules cannot read, in order (empty when every word is read). */
export function unreadWords(statement: string, p: ProposalParties): string[] {
  const tokens = tokenize(statement);
  const read = new Array<boolean>(tokens.length).fill(false);
  const mark = (from: number, to: number) => {
    for (let k = from; k < to; k++) read[k] = true;
  };
  for (const h of findPlaces(tokens)) mark(h.start, h.end);
  for (const h of findAttributes(tokens)) mark(h.start, h.end);
  const nameWords = new Set(p.names.flatMap((n) => tokenize(n).map((t) => t.norm)));
  // A word either intent uses restates the match (the hosted negotiator quotes them as evidence).
  const intentStems = new Set([p.mine.reading, p.theirs.reading].flatMap((r) => [...statedStems(r, 'seek'), ...statedStems(r, 'give')]));
  // So does an amount either intent states ("5–8 kW", quoted as checked), number for number.
  const intentNumbers = new Set([p.mine.reading, p.theirs.reading].flatMap((r) => (r.constraints.amounts ?? []).flatMap((q) => q.text.match(/\d+(?:[.,]\d+)*/g) ?? [])));
  const statedNumber = (raw: string) => {
    const numbers = raw.match(/\d+(?:[.,]\d+)*/g);
    return !!numbers && /^[\d.,–+~-]+$/.test(raw) && numbers.every((n) => intentNumbers.has(n));
  };
  for (let i = 0; i < tokens.length; i++) {
    if (read[i]) continue;
    const t = tokens[i];
    if (STOPWORDS.has(t.norm) || TALK.has(t.norm) || nameWords.has(t.norm) || intentStems.has(stemOf(t.norm)) || statedNumber(t.raw)) {
      read[i] = true;
      continue;
    }
    // An amount (the tokeniser keeps "€1.5m" whole) is compared by the money check.
    if (/^[$€£¥]\d/.test(t.raw)) {
      read[i] = true;
      if (SCALE.has(tokens[i + 1]?.norm ?? '')) read[++i] = true;
      continue;
    }
  }
  const unread = tokens.filter((_, i) => !read[i]).map((t) => t.raw);
  // A share ("60%") is a term no requirement speaks to, even when its words are all read.
  if (PERCENT.test(statement)) unread.push(statement.match(PERCENT)![0]);
  return unread;
}

/** The statements of a proposal (not its questions or answers) that hold words the rules cannot read. */
export function unreadTerms(message: string, p: ProposalParties): string[] {
  const out: string[] = [];
  for (const line of message.split('\n')) {
    if (!line.trim() || ANSWER_LINE.test(line)) continue;
    const quoted = INTRODUCER_QUOTE.exec(line.trim());
    if (quoted && p.introducerContext && isQuoteOf(quoted[2], p.introducerContext)) continue;
    for (const sentence of line.split(/(?<=[?.!])\s+/)) {
      const s = sentence.trim();
      if (!s || s.endsWith('?')) continue;
      if (unreadWords(s, p).length) out.push(s);
    }
  }
  return out;
}

/** The hosted negotiator quotes the note whitespace-normalised and possibly cut with an ellipsis. */
function isQuoteOf(quote: string, context: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  const q = norm(quote).replace(/…$/, '');
  return q.length > 0 && norm(context).startsWith(q);
}
