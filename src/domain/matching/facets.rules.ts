import { findAttributes, findMoney, type Dim, type MoneyAmount } from './attributes.rules';
import { findPlaces, type PlaceRef } from './geo.rules';
import { LEXICON_SOURCE, parseLexicon, type Concept, type LexEntry, type Lexicon } from './lexicon';
import { splitSentences, STOPWORDS, tokenize, type Token } from './text.rules';
import { READING_VERSION, readIntent, type IntentReading } from '../reading/intent-reader';

/** Bump when the rules of this file change. */
const EXTRACTION_VERSION = 6;

/**
 * The version stored facets carry: stored facets of another version are recomputed. They hold
 * the general reader's reading too (discover ranks by it), so a new reader version is a new
 * facets version: before, a reader change left stored readings as they were until the text changed.
 */
export const FACETS_VERSION = EXTRACTION_VERSION * 100 + READING_VERSION;

/**
 * What an intent says about itself, read by rules: what it seeks and offers (concept → weight),
 * the topic it is about, what it refuses, and the constraints it states.
 */
export interface Facets {
  v: number;
  seeks: Record<string, number>;
  offers: Record<string, number>;
  /** Symmetric topic: concept ids and content words, each with a weight. */
  topics: Record<string, number>;
  /** Refused things: concept ids, or `dim:value` for constraint values ("no pets", "not a composer"). */
  excludes: string[];
  attrs: Partial<Record<Dim, string[]>>;
  /** Dimensions stated as hard requirements ("only", "no relocation"). */
  strict: Dim[];
  places: PlaceRef[];
  money: MoneyAmount[];
  /** Words of need and offer clauses that no vocabulary entry covers: a fallback for unknown trades. */
  seekWords: string[];
  offerWords: string[];
  /** The general reading (seek and give words, constraints) that ranks candidates. */
  reading: IntentReading;
}

let lexicon: Lexicon | null = null;
export function lex(): Lexicon {
  lexicon ??= parseLexicon(LEXICON_SOURCE, (p) => tokenize(p).map((t) => t.norm));
  return lexicon;
}

export function conceptOf(id: string): Concept | undefined {
  return lex().concepts.get(id);
}

/** The concept and its ancestors, nearest first. */
export function ancestry(id: string): string[] {
  const out: string[] = [];
  let c = conceptOf(id);
  while (c) {
    out.push(c.id);
    c = c.parent ? conceptOf(c.parent) : undefined;
  }
  return out;
}

type State = 'self' | 'seek' | 'offer' | 'audience' | 'context';

interface Cue {
  words: string[];
  state: State;
  /** Concepts the cue itself implies: [side, concept]. */
  implies?: Array<['seek' | 'offer', string]>;
  /** Only at the start of a sentence (imperatives). */
  initial?: boolean;
}

const CUE_LIST: Array<[string, State, Array<['seek' | 'offer', string]>?, boolean?]> = [
  ['looking for', 'seek'], ['look for', 'seek'], ['looking to', 'seek'], ['searching for', 'seek'], ['search for', 'seek'],
  ['in search of', 'seek'], ['seeking', 'seek'], ['seek', 'seek'], ['need', 'seek'], ['needing', 'seek'], ['in need of', 'seek'],
  ['require', 'seek'], ['requires', 'seek'], ['required', 'seek'], ['want', 'seek'], ['would love', 'seek'], ['would like', 'seek'],
  ['could use', 'seek'], ['could really use', 'seek'], ['hoping to find', 'seek'], ['hope to find', 'seek'], ['anyone selling', 'seek'],
  ['anyone have', 'seek'], ['anyone got', 'seek'], ['anyone with', 'seek'], ['any recommendation', 'seek'], ['recommend', 'seek'],
  ['interested in', 'seek'], ['buying', 'seek'], ['to buy', 'seek'], ['open call for', 'seek'], ['calling all', 'seek'],
  ['hiring', 'seek', [['offer', 'job']]], ['we are hiring', 'seek', [['offer', 'job']]], ['recruiting', 'seek', [['offer', 'job']]],
  ['to hire', 'seek', [['offer', 'job']]], ['job opening', 'seek', [['offer', 'job']]],
  ['raising', 'seek', [['seek', 'funding'], ['offer', 'startup']]], ['fundraising', 'seek', [['seek', 'funding'], ['offer', 'startup']]],
  ['short on', 'seek'], ['low on', 'seek'], ['out of', 'seek'], ['lacking', 'seek'],
  ['accepting application from', 'audience'], ['application from', 'audience'], ['send', 'seek', undefined, true],
  ['offering', 'offer'], ['offer', 'offer'], ['available', 'offer'], ['for rent', 'offer', [['offer', 'housing']]],
  ['for sale', 'offer'], ['to let', 'offer', [['offer', 'housing']]], ['selling', 'offer'], ['happy to', 'offer'], ['glad to', 'offer'],
  ['can help', 'offer'], ['i can', 'offer'], ['we can', 'offer'], ['provide', 'offer'], ['providing', 'offer'], ['we provide', 'offer'],
  ['commission open', 'offer'], ['taking on', 'offer'], ['open to', 'offer'], ['for hire', 'offer'], ['here to help', 'offer'],
  ['subletting', 'offer', [['offer', 'housing']]], ['giving away', 'offer'], ['would happily', 'offer'], ['happily', 'offer'],
  ['enjoy', 'offer'], ['spare', 'offer'],
];

// Verbs whose object is the person or thing served (the audience), not what is offered.
const AUDIENCE_VERBS = new Set([
  'mentor', 'coach', 'back', 'fund', 'invest', 'investing', 'sign', 'book', 'booking', 'supervise', 'supervising', 'teach', 'share',
  'donate', 'suit', 'support', 'partner', 'partnering', 'integrate', 'contribute', 'accept', 'accepting', 'welcome', 'team',
  'advise', 'guide', 'host', 'hosting', 'let',
]);
const AUDIENCE_PREPS = new Set(['with', 'to', 'into', 'in', 'for']);
const NEGATORS = new Set(['no', 'not', 'non', 'without', 'never', 'dont', 'wont', 'cant', 'cannot', 'isnt', 'arent', 'doesnt', 'nor', 'nobody', 'none']);
const SELF_MARKERS = new Set(['i', 'we', 'our', 'my', 'me']);
const POST_SEEK = new Set(['wanted', 'needed', 'welcome', 'welcomed', 'required']);
const SOMEONE = new Set(['someone', 'somebody', 'anyone', 'anybody', 'people', 'person', 'who', 'folks', 'volunteer', 'willing', 'that', 'able']);
// Cues that make a clause a trade in goods: what it names is the goods' subject, not a service.
const TRADE_CUES: Record<string, 'seek' | 'offer'> = {
  selling: 'offer', 'for sale': 'offer', 'giving away': 'offer', 'anyone selling': 'seek', buying: 'seek', 'to buy': 'seek',
};
// "Selling" starts the intent's own clause ("Selling my bike", "I'm selling …"); elsewhere it is a skill ("experience selling to banks").
const TRADE_ANYWHERE = new Set(['for sale', 'giving away', 'anyone selling', 'to buy']);
// An activity is sought together only when the text asks for company.
const PARTNER_WORDS = new Set(['partner', 'buddy', 'together', 'teammate']);
const PARTNER_PHRASES = [['join', 'me'], ['join', 'us'], ['team', 'up'], ['with', 'me'], ['with', 'us'], ['play', 'with'], ['keep', 'me', 'company']];
// Weaker signs of a shared activity; they count when the text offers or seeks nothing else (a coach's "group clinics" is a service).
const GROUP_WORDS = new Set(['play', 'playing', 'player', 'group', 'club', 'pickup', 'join', 'company', 'meet', 'beginner']);
// After "someone to climb with": words that end the phrase rather than name who it is with.
const WITH_END = new Set(['on', 'in', 'at', 'for', 'this', 'next', 'every', 'most', 'after', 'before', 'and', 'or', 'around', 'near', 'regularly', 'weekly', 'sometimes', 'some', 'once', 'twice']);

/** How the text asks for company in an activity: a partner word or phrase, or only a group word. */
function partnerCue(sentences: Token[][]): 'strong' | 'weak' | null {
  let weak = false;
  for (const tokens of sentences) {
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i].norm;
      if (PARTNER_WORDS.has(w)) return 'strong';
      if (PARTNER_PHRASES.some((p) => p.every((x, k) => tokens[i + k]?.norm === x))) return 'strong';
      // "someone to boulder with", "a person to hit with on Saturdays"
      if (w === 'with' && (tokens[i - 2]?.norm === 'to' || tokens[i - 3]?.norm === 'to')) {
        const next = tokens[i + 1];
        if (!next || next.breakBefore || WITH_END.has(next.norm)) return 'strong';
      }
      if (GROUP_WORDS.has(w)) weak = true;
    }
  }
  return weak ? 'weak' : null;
}

// A known trade named just before these is the subject of teaching ("tax return workshops",
// "bookkeeping course"): what is offered or sought is the teaching, not the trade.
const TEACHING_NOUNS = new Set(['course', 'training', 'workshop', 'class', 'lesson', 'tutorial', 'bootcamp', 'webinar', 'masterclass', 'induction']);

/** The position of a teaching noun right after a mention ending at `end` (one content word may sit between). */
function teachingAfter(tokens: Token[], end: number): boolean {
  const next = tokens[end];
  if (!next || next.breakBefore) return false;
  if (TEACHING_NOUNS.has(next.norm)) return true;
  const after = tokens[end + 1];
  return !!after && !after.breakBefore && TEACHING_NOUNS.has(after.norm) && isContentWord(next.norm);
}

// Before these a word that is both a noun and a verb ("volunteer", "mentor") is the verb.
const VERB_CONTEXT = new Set(['to', 'i', 'we', 'they', 'can', 'will', 'would', 'also', 'and']);

let cues: Map<string, Cue[]> | null = null;
function cueIndex(): Map<string, Cue[]> {
  if (cues) return cues;
  cues = new Map();
  for (const [phrase, state, implies, initial] of CUE_LIST) {
    const words = tokenize(phrase).map((t) => t.norm);
    const list = cues.get(words[0]) ?? [];
    list.push({ words, state, implies, initial });
    cues.set(words[0], list);
  }
  for (const list of cues.values()) list.sort((a, b) => b.words.length - a.words.length);
  return cues;
}

// A need for one side implies an offer on the other (the room seeker is a would-be tenant).
const IMPLIES: Record<string, { seek?: string; offer?: string }> = {
  housing: { seek: 'tenant', offer: 'tenant' },
  funding: { seek: 'startup', offer: 'startup' },
  childcare: { seek: 'family', offer: 'family' },
  mentoring: { seek: 'mentee', offer: 'mentee' },
  publishing: { seek: 'game-studio', offer: 'game-studio' },
  gig: { seek: 'musician', offer: 'musician' },
  speaking: { seek: 'event', offer: 'event' },
  reviewing: { seek: 'event', offer: 'event' },
  'oss-contribution': { seek: 'oss-project', offer: 'oss-project' },
};

function matchAt<E extends { words: string[] }>(tokens: Token[], i: number, entries: E[] | undefined): E | null {
  for (const e of entries ?? []) if (e.words.every((w, k) => tokens[i + k]?.norm === w)) return e;
  return null;
}

/** Verb forms of a word ("transcribed" → "transcribe"), tried when the word itself is unknown. */
export function verbStems(w: string): string[] {
  const out: string[] = [];
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ing')) out.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
  return out.filter((x) => x.length >= 3);
}

/** The lexicon entry at position i: the longest phrase; between a noun and a verb of the same length, context decides. */
function lexiconAt(L: Lexicon, tokens: Token[], i: number): LexEntry | null {
  const word = tokens[i].norm;
  let candidates = (L.byFirst.get(word) ?? []).filter((e) => e.words.every((w, k) => tokens[i + k]?.norm === w));
  if (!candidates.length) {
    for (const stem of verbStems(word)) {
      const acts = (L.byFirst.get(stem) ?? []).filter((e) => e.kind === 'act' && e.words.length === 1);
      if (acts.length) {
        candidates = acts;
        break;
      }
    }
  }
  if (!candidates.length) return null;
  const longest = candidates[0].words.length;
  const same = candidates.filter((e) => e.words.length === longest);
  const verbish = VERB_CONTEXT.has(tokens[i - 1]?.norm ?? '') || ['me', 'us', 'them', 'it'].includes(tokens[i + longest]?.norm ?? '');
  return same.find((e) => (e.kind === 'act') === verbish) ?? same[0];
}

/**
 * Who does the act: "mentor me", "someone to board my dogs", "playtesters willing to record"
 * ask for it; "I mix", "happy to mentor", "want to volunteer" offer it.
 */
function actSide(tokens: Token[], i: number, length: number): 'seek' | 'offer' {
  const next = tokens[i + length]?.norm;
  const before = tokens.slice(Math.max(0, i - 3), i).map((x) => x.norm);
  return next === 'me' || next === 'us' || before.some((b) => SOMEONE.has(b)) ? 'seek' : 'offer';
}

interface Mention {
  concept: string;
  side: 'seek' | 'offer' | 'topic';
  negated: boolean;
  clause: number;
  /** Named inside a trade in goods ("selling climbing shoes"): the side of the trade. */
  trade?: 'seek' | 'offer';
}

/** Reads an intent's text into facets. Pure and deterministic. */
export function extractFacets(text: string): Facets {
  const L = lex();
  const mentions: Mention[] = [];
  const topics: Record<string, number> = {};
  const attrs: Partial<Record<Dim, Set<string>>> = {};
  const excludes = new Set<string>();
  const strict = new Set<Dim>();
  const places: PlaceRef[] = [];
  const sideWords = { seek: new Set<string>(), offer: new Set<string>() };
  let clause = 0;
  let carried: State = 'self';
  const sentences = splitSentences(text);
  const trades = new Set<'seek' | 'offer'>();

  for (const sentence of sentences) {
    const tokens = sentence.tokens;
    let trade: 'seek' | 'offer' | null = null;
    const first = tokens[0]?.norm ?? '';
    let state: State = sentence.bullet || (carried === 'seek' && !SELF_MARKERS.has(first)) ? carried : 'self';
    if (carried === 'audience' && !sentence.bullet) state = 'self';
    let negUntil = -1;
    let negStart = -1;
    let negBudget = false; // "no compute budget": a money constraint, not a refusal of compute
    let roleUntil = -1; // "as the business cofounder": a self-description inside a need
    let contextUntil = -1; // "lead at a consumer lender": the employer, not a side
    let lastAct: string | null = null;
    let raisingClause = false;
    let learnUntil = -1; // "learn to shoot weddings": the subject of a lesson, not a service

    const placeHits = findPlaces(tokens);
    const placeTokens = new Set<number>();
    for (const p of placeHits) {
      places.push(p.place);
      for (let k = p.start; k < p.end; k++) placeTokens.add(k);
    }
    const attrHits = findAttributes(tokens);
    const attrTokens = new Set<number>();
    for (const h of attrHits) for (let k = h.start; k < h.end; k++) attrTokens.add(k);

    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.breakBefore) {
        clause += 1;
        if (negUntil >= i) negUntil = -1;
        roleUntil = -1;
        contextUntil = -1;
      }
      if (t.breakBefore && state === 'audience') state = 'offer';
      // "Raising a seed for Kasa — an app …": the round is sought, what follows describes the company.
      if (t.breakBefore && raisingClause) {
        state = 'self';
        raisingClause = false;
      }
      if (NEGATORS.has(t.norm)) {
        negStart = i;
        negUntil = i + 3;
        negBudget = tokens.slice(i + 1, i + 4).some((x) => x.norm === 'budget');
        continue;
      }
      if (t.norm === 'but') negUntil = -1;
      if (t.norm === 'learn' || t.norm === 'learning') {
        learnUntil = i + 4;
        continue;
      }
      if (t.breakBefore && learnUntil >= i) learnUntil = -1;
      if (t.norm === 'course' && tokens[i - 1]?.norm === 'of') continue; // "of course"
      if (t.norm === 'as' && ['a', 'an', 'the'].includes(tokens[i + 1]?.norm ?? '')) {
        roleUntil = i + 5;
        continue;
      }
      if (t.norm === 'at' && (['a', 'an', 'the'].includes(tokens[i + 1]?.norm ?? '') || /^[A-Z]/.test(tokens[i + 1]?.raw ?? ''))) {
        contextUntil = i + 5;
        continue;
      }
      if (POST_SEEK.has(t.norm)) {
        for (const m of mentions) if (m.clause === clause && m.side === 'offer') m.side = 'seek';
        continue;
      }
      const cue = matchAt(tokens, i, cueIndex().get(t.norm));
      if (cue && !(cue.initial && i > 0)) {
        const negated = negStart >= 0 && i === negStart + 1;
        if (!negated) {
          negUntil = -1;
          state = cue.state;
          const phrase = cue.words.join(' ');
          const opensClause = i === 0 || tokens[i].breakBefore || SELF_MARKERS.has(tokens[i - 1].norm) || ['am', 'are', 'currently', 'also'].includes(tokens[i - 1].norm);
          trade = TRADE_CUES[phrase] && (TRADE_ANYWHERE.has(phrase) || opensClause) ? TRADE_CUES[phrase] : null;
          if (trade) trades.add(trade);
          raisingClause = cue.words[0] === 'raising' || cue.words[0] === 'fundraising';
          for (const [side, concept] of cue.implies ?? []) mentions.push({ concept, side, negated: false, clause });
        }
        i += cue.words.length - 1;
        continue;
      }
      if (lastAct && AUDIENCE_PREPS.has(t.norm) && AUDIENCE_VERBS.has(lastAct)) state = 'audience';
      const entry = lexiconAt(L, tokens, i);
      if (entry && !entry.words.every((_, k) => placeTokens.has(i + k))) {
        const concept = L.concepts.get(entry.concept)!;
        const negated = i <= negUntil && !negBudget;
        let side: Mention['side'];
        if (concept.topicOnly || i <= contextUntil || i <= learnUntil) side = 'topic';
        else if (i <= roleUntil) side = 'offer';
        else if (entry.kind === 'act') {
          side = actSide(tokens, i, entry.words.length);
          lastAct = entry.words[0];
          if (side === 'offer') state = AUDIENCE_VERBS.has(lastAct) ? 'audience' : 'offer';
        } else side = state === 'seek' || state === 'audience' ? 'seek' : 'offer';
        // A person names work they want; employers say "hiring", which offers the job.
        if (concept.id === 'job' || concept.parent === 'job') side = side === 'topic' ? 'topic' : 'seek';
        if (side !== 'topic' && concept.id !== 'tutoring' && concept.id !== 'event' && teachingAfter(tokens, i + entry.words.length)) {
          mentions.push({ concept: 'tutoring', side, negated, clause, trade: trade ?? undefined });
          side = 'topic';
        }
        mentions.push({ concept: entry.concept, side, negated, clause, trade: trade && side !== 'topic' ? trade : undefined });
        i += entry.words.length - 1;
        continue;
      }
      if (AUDIENCE_VERBS.has(t.norm) && state !== 'seek') {
        lastAct = t.norm;
        const next = tokens[i + 1]?.norm ?? '';
        if (!AUDIENCE_PREPS.has(next)) state = 'audience';
      }
      if (!placeTokens.has(i) && isContentWord(t.norm)) {
        topics[t.norm] = Math.max(topics[t.norm] ?? 0, 1);
        if (!attrTokens.has(i) && i > contextUntil && i > negUntil && i > learnUntil && !teachingAfter(tokens, i + 1)) sideWords[state === 'seek' || state === 'audience' ? 'seek' : 'offer'].add(t.norm);
      }
    }

    // Constraints: negated values are refusals; "X only" / "only X" makes the dimension strict.
    for (const h of attrHits) {
      let negated = false;
      for (let k = h.start - 1; k >= Math.max(0, h.start - 3); k--) {
        if (NEGATORS.has(tokens[k].norm)) {
          negated = true;
          break;
        }
        if (tokens[k].breakBefore) break;
      }
      const only = tokens[h.end]?.norm === 'only' || tokens[h.start - 1]?.norm === 'only' || tokens[h.end + 1]?.norm === 'only';
      for (const v of h.values) {
        if (negated) excludes.add(`${h.dim}:${v}`);
        else (attrs[h.dim] ??= new Set()).add(v);
      }
      if (only && !negated) strict.add(h.dim);
    }
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i].norm;
      const neg = tokens.slice(Math.max(0, i - 2), i).some((x) => NEGATORS.has(x.norm));
      if (neg && (w === 'relocation' || w === 'travel')) strict.add('place');
      if (neg && w === 'budget') (attrs.pay ??= new Set()).add('free');
      if (w === 'only' && placeHits.some((p) => p.end === i || p.end === i - 1 || p.start === i + 1)) strict.add('place');
      if ((w === 'local' || w === 'pickup') && tokens[i + 1]?.norm === 'only') strict.add('place');
    }
    carried = sentence.heading ? state : state === 'offer' ? 'self' : state;
  }

  const seeks: Record<string, number> = {};
  const offers: Record<string, number> = {};
  const add = (rec: Record<string, number>, id: string, w: number) => {
    rec[id] = Math.max(rec[id] ?? 0, w);
  };
  const isGoods = (id: string) => ancestry(id).includes('goods');
  // Goods change hands: in "selling climbing shoes" the shoes are offered, climbing is only the topic.
  for (const m of mentions) if (m.trade && !isGoods(m.concept)) m.side = 'topic';
  for (const side of trades) {
    if (!mentions.some((m) => m.trade === side && m.side === side && isGoods(m.concept))) mentions.push({ concept: 'goods', side, negated: false, clause, trade: side });
  }
  const activities = mentions.filter((m) => m.side !== 'topic' && !m.negated && conceptOf(m.concept)?.activity);
  let together = false;
  if (activities.length) {
    const cue = partnerCue(sentences.map((s) => s.tokens));
    const otherSides = mentions.some((m) => m.side !== 'topic' && !m.negated && !conceptOf(m.concept)?.activity);
    together = cue === 'strong' || (cue === 'weak' && !otherSides);
  }
  for (const m of mentions) {
    const c = L.concepts.get(m.concept);
    if (!c) continue;
    topics[`@${c.id}`] = Math.max(topics[`@${c.id}`] ?? 0, 2);
    if (m.negated) {
      excludes.add(c.id);
      continue;
    }
    if (m.side === 'topic' || (c.activity && !together)) continue;
    const rec = m.side === 'seek' ? seeks : offers;
    add(rec, c.id, c.weight);
    if (c.mutual) add(m.side === 'seek' ? offers : seeks, c.id, c.weight);
  }
  for (const [id, imp] of Object.entries(IMPLIES)) {
    if (seeks[id] && imp.offer && !offers[imp.offer]) add(offers, imp.offer, 0.5 * (conceptOf(imp.offer)?.weight ?? 1));
    if (offers[id] && imp.seek && !seeks[imp.seek]) add(seeks, imp.seek, 0.5 * (conceptOf(imp.seek)?.weight ?? 1));
  }
  // Paying for what one needs is offering paid work.
  const paid = attrs.pay?.has('paid') || findMoney(text).length > 0;
  if (paid && !attrs.pay?.has('free') && Object.keys(seeks).some((k) => k !== 'job' && !conceptOf(k)?.mutual && !isGoods(k)) && !offers.job && !seeks.job && !seeks.funding) {
    add(offers, 'job', 0.5);
  }
  // Contract and freelance work is paid work unless the text says otherwise.
  if (attrs.employment?.has('contract') && !attrs.pay) attrs.pay = new Set(['paid']);
  const money = findMoney(text);
  if (money.length && !attrs.pay && money.some((m) => m.unit !== 'total' || m.lo > 0)) (attrs.pay ??= new Set()).add('paid');
  // Rent without a period is monthly rent.
  if (seeks.housing || offers.housing) for (const m of money) if (m.unit === 'total' && m.hi < 20_000) m.unit = 'month';

  return {
    v: FACETS_VERSION,
    seeks,
    offers,
    topics,
    excludes: [...excludes],
    attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, [...(v as Set<string>)]])) as Facets['attrs'],
    strict: [...strict],
    places: dedupePlaces(places),
    money,
    seekWords: [...sideWords.seek],
    offerWords: [...sideWords.offer],
    reading: readIntent(text),
  };
}

function isContentWord(w: string): boolean {
  return w.length >= 3 && !STOPWORDS.has(w) && !/^[$€£\d]/.test(w);
}

function dedupePlaces(places: PlaceRef[]): PlaceRef[] {
  const seen = new Map<string, PlaceRef>();
  for (const p of places) seen.set(`${p.kind}:${p.key}:${p.area ?? ''}`, p);
  return [...seen.values()];
}
