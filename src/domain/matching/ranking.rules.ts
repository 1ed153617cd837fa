import type { Dim } from './attributes.rules';
import { ancestry, conceptOf, verbStems, type Facets } from './facets.rules';
import { placeCompatibility } from './geo.rules';

/**
 * Complementarity of two intents, as a score in [0, 1] with a fixed meaning: how much of the
 * query's need the candidate offers (and of the candidate's need the query offers), times how
 * much they share a topic, times how well their stated constraints agree. Nothing is normalised
 * per query, so 0.6 is as good a match in one query as in another.
 */
export interface PairScore {
  score: number;
  /** Share of the query's need the candidate offers (null: the query states no need). */
  need: number | null;
  /** Share of the candidate's need the query offers (null: the candidate states no need). */
  reverse: number | null;
  topic: number;
  constraints: number;
  reasons: string[];
}

/** Below this a candidate is not a counterparty and discover leaves it out. */
export const MIN_SCORE = 0.3;

/** How well an offered concept answers a sought one. */
export function conceptSimilarity(sought: string, offered: string): number {
  if (sought === offered) return 1;
  const up = ancestry(offered);
  if (up.includes(sought)) return 0.9; // asked for a kind, offered one of that kind
  const down = ancestry(sought);
  if (down.includes(offered)) return 0.5; // asked for something specific, offered the general kind
  const ps = conceptOf(sought)?.parent;
  const po = conceptOf(offered)?.parent;
  if (ps && ps === po) {
    const parent = conceptOf(ps);
    if (parent?.exclusive) return 0.1;
    return parent?.topicOnly ? 0.15 : 0.3;
  }
  return 0;
}

export function coverage(sought: Record<string, number>, offered: Record<string, number>): number {
  let total = 0;
  let got = 0;
  const offeredIds = Object.keys(offered);
  for (const [x, w] of Object.entries(sought)) {
    total += w;
    let best = 0;
    for (const y of offeredIds) best = Math.max(best, conceptSimilarity(x, y));
    got += w * best;
  }
  return total > 0 ? got / total : 0;
}

/** Offering a sibling of what is asked for (a cat sitter for dogs, Unreal for Unity) is a wrong match. */
export function wrongVariant(sought: Record<string, number>, offered: Record<string, number>): boolean {
  if (coverage(sought, offered) >= 0.5) return false;
  for (const x of Object.keys(sought)) {
    const parent = conceptOf(x)?.parent;
    if (!parent || !conceptOf(parent)?.exclusive) continue;
    const answered = Object.keys(offered).some((y) => conceptSimilarity(x, y) >= 0.9);
    if (answered) continue;
    if (Object.keys(offered).some((y) => y !== x && conceptOf(y)?.parent === parent)) return true;
  }
  return false;
}

export function weightOf(rec: Record<string, number>): number {
  return Object.values(rec).reduce((a, b) => a + b, 0);
}

export function topicSimilarity(a: Record<string, number>, b: Record<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, w] of Object.entries(a)) {
    na += w * w;
    const v = b[k];
    if (v) dot += w * v;
  }
  for (const w of Object.values(b)) nb += w * w;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

const EMPLOYMENT_OK: Record<string, string[]> = {
  ft: ['ft'],
  pt: ['pt', 'interim', 'contract'],
  interim: ['pt', 'interim', 'contract'],
  contract: ['pt', 'interim', 'contract'],
};

export function dimCompatibility(dim: Dim, a: string[], b: string[], strict: boolean): number {
  const shared = a.some((x) => b.includes(x) || x === '*' || x === 'any') || b.some((x) => x === '*' || x === 'any');
  if (shared) return 1;
  switch (dim) {
    case 'stage': {
      const gap = Math.min(...a.flatMap((x) => b.map((y) => Math.abs(Number(x) - Number(y)))));
      return gap <= 1 ? 0.75 : 0.35;
    }
    case 'employment':
      return a.some((x) => b.some((y) => EMPLOYMENT_OK[x]?.includes(y))) ? 1 : 0.35;
    case 'mode': {
      const remoteish = (v: string[]) => v.some((x) => x === 'remote' || x === 'virtual');
      const present = (v: string[]) => v.some((x) => x === 'onsite' || x === 'inperson');
      if ((remoteish(a) && present(b)) || (remoteish(b) && present(a))) return strict ? 0.25 : 0.45;
      return 0.75;
    }
    case 'pay':
      return strict ? 0.25 : 0.4;
    case 'daytype':
      return 0.35;
    case 'daypart': {
      const day = (v: string[]) => v.includes('day');
      if ((day(a) && b.some((x) => x !== 'evening')) || (day(b) && a.some((x) => x !== 'evening'))) return 1;
      return 0.6;
    }
    case 'month': {
      const near = a.some((x) => b.some((y) => {
        const d = Math.abs(Number(x) - Number(y)) % 12;
        return Math.min(d, 12 - d) <= 1;
      }));
      // Next to each other is not the same time ("Sept to Nov" against "June to August"): the owners decide.
      if (near) return 0.75;
      return strict ? 0.35 : 0.6;
    }
    case 'lang':
      return 0.3;
    case 'pet':
      return 0.45;
    default:
      return 1;
  }
}

function constraintFactor(q: Facets, c: Facets, reasons: string[]): number {
  let factor = 1;
  // Refusals: one side refuses what the other is or needs.
  const refuses = (x: Facets, y: Facets) =>
    x.excludes.some((e) => {
      if (e.includes(':')) {
        const [dim, v] = e.split(':') as [Dim, string];
        const vals = y.attrs[dim] ?? [];
        return vals.includes(v) || (dim === 'pet' && v === 'any' && vals.length > 0) || (dim === 'pet' && vals.includes('any'));
      }
      return e in y.seeks || e in y.offers;
    });
  if (refuses(q, c) || refuses(c, q)) {
    factor *= 0.2;
    reasons.push('refused');
  }
  let placeFit = 1;
  if (q.places.length && c.places.length) {
    placeFit = 0;
    for (const p of q.places) for (const r of c.places) placeFit = Math.max(placeFit, placeCompatibility(p, r));
  }
  const dims = new Set([...Object.keys(q.attrs), ...Object.keys(c.attrs)] as Dim[]);
  for (const dim of dims) {
    const a = q.attrs[dim];
    const b = c.attrs[dim];
    if (!a?.length || !b?.length) continue;
    const f = dimCompatibility(dim, a, b, q.strict.includes(dim) || c.strict.includes(dim));
    if (f < 1) reasons.push(`${dim}:${f}`);
    factor *= f;
  }
  if (q.places.length && c.places.length) {
    const best = placeFit;
    const strictPlace = q.strict.includes('place') || c.strict.includes('place');
    const f = strictPlace ? best : 0.3 + 0.7 * best;
    if (f < 1) reasons.push(`place:${f.toFixed(2)}`);
    factor *= f;
  }
  for (const m of q.money) {
    for (const n of c.money) {
      if (m.unit === 'total' || m.unit !== n.unit || m.currency !== n.currency) continue;
      const overlap = m.lo <= n.hi * 1.2 && n.lo <= m.hi * 1.2;
      if (!overlap) {
        factor *= 0.6;
        reasons.push('price');
      }
    }
  }
  return factor;
}

/** Highest fit the word fallback gives a candidate that names no concept, for a need the vocabulary reads. */
const WORDS_UNREAD_CAP = 0.25;

/** A word and its verb stems, so "rewire" meets "rewiring". */
function wordForms(w: string): string[] {
  return [w, ...verbStems(w)];
}

/** Whether a side is a trade in goods (bought or sold), which only another goods trade answers. */
function tradesGoods(side: Record<string, number>): boolean {
  return Object.keys(side).some((k) => ancestry(k).includes('goods'));
}

const TOPIC_BASE = 0.55;
const TOPIC_FULL = 0.45;

export function scorePair(q: Facets, c: Facets): PairScore {
  const reasons: string[] = [];
  const hasNeed = Object.keys(q.seeks).length > 0;
  const theirNeed = Object.keys(c.seeks).length > 0;
  const need = hasNeed ? coverage(q.seeks, c.offers) : null;
  const reverse = theirNeed ? coverage(c.seeks, q.offers) : null;
  let fit: number;
  if (need !== null && reverse !== null) {
    // Each direction counts as much as its need says: a bare "looking for a job" says less than the
    // employer's list of skills, so the employer's list decides most of the fit.
    const wq = weightOf(q.seeks) + 0.3;
    const wc = weightOf(c.seeks);
    fit = need ** (wq / (wq + wc)) * (0.15 + 0.85 * reverse) ** (wc / (wq + wc));
  }
  else if (need !== null) fit = 0.9 * need;
  else if (reverse !== null) fit = 0.8 * reverse;
  else fit = 0;
  // Trades the vocabulary does not know: the words of one side's need against the other's offer.
  const qSeeksKnown = Object.keys(q.seeks).some((k) => k !== 'job');
  const cOffersKnown = Object.keys(c.offers).some((k) => k !== 'job');
  if ((!qSeeksKnown || !cOffersKnown) && q.seekWords?.length && c.offerWords?.length && tradesGoods(q.seeks) === tradesGoods(c.offers)) {
    const offered = new Set(c.offerWords.flatMap(wordForms));
    const words = q.seekWords.filter((w) => wordForms(w).some((f) => offered.has(f))).length / q.seekWords.length;
    let wordsFit = 0.8 * words;
    // The query's need is one the vocabulary reads, and the candidate names nothing it reads: shared
    // words are then more likely a qualifier ("QuickBooks" in a training offer for a bookkeeper
    // wanted) than the trade itself, so they order such candidates but never introduce them.
    const cNamesConcept = Object.keys(c.seeks).length + Object.keys(c.offers).length > 0;
    if (qSeeksKnown && !cNamesConcept) wordsFit = Math.min(wordsFit, WORDS_UNREAD_CAP);
    if (wordsFit > 0 && wordsFit > fit) {
      fit = wordsFit;
      reasons.push('words');
    }
  }
  if (hasNeed && wrongVariant(q.seeks, c.offers)) {
    fit *= 0.45;
    reasons.push('wrong-variant');
  }
  if (theirNeed && wrongVariant(c.seeks, q.offers)) {
    fit *= 0.6;
    reasons.push('wrong-variant-reverse');
  }
  // Two parties after the same thing compete for it; neither answers the other.
  const ownNeeds = Object.fromEntries(Object.entries(q.seeks).filter(([k]) => !conceptOf(k)?.mutual));
  if (Object.keys(ownNeeds).length && (need ?? 0) < 0.5) {
    const rivalry = coverage(ownNeeds, c.seeks);
    if (rivalry >= 0.5) {
      fit *= 1 - 0.5 * rivalry;
      reasons.push('same-side');
    }
  }
  const topic = topicSimilarity(q.topics, c.topics);
  const topicFactor = TOPIC_BASE + (1 - TOPIC_BASE) * Math.min(1, topic / TOPIC_FULL);
  const constraints = constraintFactor(q, c, reasons);
  const score = Math.max(0, Math.min(1, fit * topicFactor * constraints));
  return { score, need, reverse, topic, constraints, reasons };
}
