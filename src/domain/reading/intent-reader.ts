import { findAttributes } from '../matching/attributes.rules';
import { findPlaces, type PlaceRef } from '../matching/geo.rules';
import { tokenize, type Token } from '../matching/text.rules';
import { AUDIENCE_VERBS, GIVE_CUES, NEGATORS, ONLY_WORDS, REQUIRED_AFTER, SEEK_CUES, STOP_WORDS } from './cues';
import { readConstraints, type Constraints } from './constraints';
import { stemOf } from './english';

export { stemOf };

/**
 * Bump when reading changes: stored readings of an older version are recomputed (they are stored
 * inside the facets, whose version includes this one: FACETS_VERSION).
 */
export const READING_VERSION = 7;

/**
 * What an intent says, read by general rules with no vocabulary of trades: the words of what it
 * seeks and of what it gives (stemmed), what it refuses ("no agencies"), what it restricts to
 * ("only in-person teams"), and the constraints it states (place, language, mode, stage, money).
 * Anything not introduced by a request cue counts as giving: people describe themselves and what
 * they have without saying "I offer".
 */
export interface IntentReading {
  v: number;
  seek: Record<string, number>;
  give: Record<string, number>;
  /** Stems named after a negation: the author refuses them. */
  refuse: string[];
  /** Stems named after "only": the author accepts only counterparts that state them. */
  only: string[];
  /** Stems stated as essential ("X essential", "X mandatory"): a counterpart must state every one. */
  required: string[];
  /** The first content words after each request cue: what the need names before qualifying it. */
  seekHead: string[];
  /** Sought stems that name whom the author serves ("we back fintech teams"), not what they need. */
  audience: string[];
  places: PlaceRef[];
  /** The places named inside what the intent seeks ("a workshop in Leeds"): where the counterpart must be. */
  seekPlaces: PlaceRef[];
  constraints: Constraints;
  /** Whether a request cue or an offer cue was found at all (the preparer reads this). */
  cued: { seek: boolean; give: boolean };
  /** The words of each side as written, in order (what a provider embeds, what cards quote). */
  text: { seek: string; give: string; refuse: string };
}

export interface ReadOptions {
  /** The side of words no cue introduces: `give` for an intent (self-description), `seek` for a search query. */
  defaultRole?: 'seek' | 'give';
}

type Role = 'seek' | 'give';

interface Cue {
  words: string[];
  kind: 'seek' | 'give' | 'audience' | 'participle' | 'neg' | 'only' | 'required';
}

let cueIndex: Map<string, Cue[]> | null = null;
const norms = (phrase: string) => tokenize(phrase).map((t) => t.norm);

function cues(): Map<string, Cue[]> {
  if (cueIndex) return cueIndex;
  const index = new Map<string, Cue[]>();
  const add = (list: string[], kind: Cue['kind']) => {
    for (const phrase of list) {
      const words = norms(phrase);
      if (!words.length) continue;
      const at = index.get(words[0]) ?? [];
      at.push({ words, kind });
      index.set(words[0], at);
    }
  };
  add(SEEK_CUES, 'seek');
  add(GIVE_CUES, 'give');
  add(AUDIENCE_VERBS, 'audience');
  // Their -ing forms are verbs wherever they stand ("a fund backing fintech teams").
  add(AUDIENCE_VERBS.map(ingForm), 'participle');
  add(NEGATORS, 'neg');
  add(ONLY_WORDS, 'only');
  add(REQUIRED_AFTER, 'required');
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length);
  cueIndex = index;
  return index;
}

let stopStems: Set<string> | null = null;
function isStop(norm: string, stemmed: string): boolean {
  stopStems ??= new Set(STOP_WORDS.flatMap((w) => [w, stemOf(w)]));
  return stopStems.has(norm) || stopStems.has(stemmed);
}

/** A content word: not a stop word, not a bare number or a single character. */
function contentStem(t: Token): string | null {
  const n = t.norm.replace(/^[-'’]+|[-'’]+$/g, '');
  if (n.length < 2 || /^[$€£¥]?[\d.,]+[kmb]?\+?$/.test(n)) return null;
  const s = stemOf(n);
  return isStop(n, s) ? null : s;
}

/**
 * A wish written with a contraction ("she'd prefer", "they'd appreciate"): the tokenizer keeps
 * the subject and drops the rest, so the "would" comes back as its own word, for the cues that
 * start with it.
 */
function withWould(tokens: Token[]): Token[] {
  if (!tokens.some((t) => /['’]d$/i.test(t.raw))) return tokens;
  return tokens.flatMap((t) => (/['’]d$/i.test(t.raw) ? [t, { ...t, norm: 'would', raw: 'would', breakBefore: false }] : [t]));
}

interface Piece {
  tokens: Token[];
  question: boolean;
  bullet: boolean;
  heading: boolean;
}

const BULLET_RE = /^\s*(?:[-*•·▪◦–]|\d+[.)])\s+/;

/** Sentences with the punctuation that tells a question, a heading and a bullet. */
function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (!line.trim()) continue;
    const bullet = BULLET_RE.test(line);
    const body = line.replace(BULLET_RE, '');
    const parts = body.split(/(?<=[!?;])\s+|(?<=[^\d\s][.])\s+|(?<=\d[.])\s+(?=[A-Z])/);
    parts.forEach((p, i) => {
      const tokens = withWould(tokenize(p, out.length));
      if (!tokens.length) return;
      out.push({ tokens, question: /\?\s*$/.test(p), bullet: bullet && i === 0, heading: /:\s*$/.test(p) && i === parts.length - 1 });
    });
  }
  return out;
}

function cueAt(tokens: Token[], i: number): Cue | null {
  for (const c of cues().get(tokens[i].norm) ?? []) {
    if (c.words.every((w, k) => tokens[i + k]?.norm === w)) return c;
  }
  return null;
}

/** Verbs of having: "no" after them (or "not" before them) states a lack. */
const LACK_BEFORE = new Set(['have', 'ha', 'had', 'got', 'is', 'are', 'there', 'left', 'lack', 'lacking', 'with', 'habe', 'haben', 'hat']);

/** Negated verbs ("can't", "don't"): what follows is usually what the author lacks. */
const VERB_NEGATORS = new Set(['dont', 'wont', 'cant', 'cannot', 'isnt', 'arent', 'doesnt', 'didnt']);
/** "do not want X", "not interested in X", "we never do X": the negation refuses X. */
const REFUSING_VERBS = new Set(['want', 'need', 'like', 'interested', 'accept', 'take', 'work', 'consider', 'do', 'offer', 'provide', 'handle', 'cover', 'sell']);

/** "back" → "backing", "serve" → "serving", "work with" → "working with". */
function ingForm(phrase: string): string {
  const [verb, ...rest] = phrase.split(' ');
  const ing = verb.endsWith('e') && verb.length > 3 ? `${verb.slice(0, -1)}ing` : `${verb}ing`;
  return [ing, ...rest].join(' ');
}

/** Words after which a serving verb is a verb: a subject, a modal, "to". */
const VERB_BEFORE = new Set(['i', 'we', 'they', 'who', 'that', 'to', 'can', 'will', 'also', 'and', 'happy', 'glad', 'love', 'usually', 'mostly', 'regularly', 'often', 'actively', 'currently']);

/**
 * "If you know tenancy law ...", "if anyone owns a trailer ...": a clause that addresses the
 * reader describes the counterpart the author wants. Inside it the cues turn round: "if you
 * require a tiler" says what the author gives, "if you can offer a room" what the author seeks.
 */
const ADDRESSED = new Set(['you', 'anyone', 'anybody', 'someone', 'somebody']);
/** A first-person subject ends an addressed clause ("if you require a tiler we fit bathrooms"). */
const FIRST_PERSON = new Set(['i', 'we', 'my', 'our']);
/**
 * "Keen to serve as treasurer", "hoping to volunteer as a driver": a role the author takes on
 * is what they give, though a request cue came before it.
 */
const ROLE_VERBS = new Set(['help', 'volunteer', 'work', 'serve', 'act', 'contribute']);
/**
 * What stands right before a role verb when its subject is the author: "I volunteer as", "we
 * can act as", or a wish of the author's and "to" ("hoping to volunteer as", "keen to serve
 * as"). After a noun ("a retired teacher to serve as chair") the noun is its subject.
 */
const OWN_SUBJECT = new Set(['i', 'we', 'also', 'can', 'could', 'will', 'would', 'happily', 'gladly']);
const OWN_WISH = new Set([
  'want', 'wanting', 'like', 'love', 'hoping', 'hope', 'keen', 'happy', 'glad', 'willing', 'looking', 'eager', 'able', 'trying',
  'plan', 'planning', 'aim', 'aiming', 'ready', 'available', 'free', 'open', 'interested', 'offer', 'offering',
]);

/** Whether tokens[i] is a role verb followed by "as" whose subject is the author. */
function ownRoleAt(tokens: Token[], i: number): boolean {
  if (!ROLE_VERBS.has(tokens[i].norm) || tokens[i + 1]?.norm !== 'as') return false;
  const before = tokens[i - 1]?.norm ?? '';
  if (before === 'to') return OWN_WISH.has(tokens[i - 2]?.norm ?? '');
  return OWN_SUBJECT.has(before);
}

/** Whether the word at i follows a word of its own clause that is no subject, modal or "and". */
function qualifiesNoun(tokens: Token[], i: number): boolean {
  const before = tokens[i - 1];
  return !!before && !tokens[i].breakBefore && !VERB_BEFORE.has(before.norm) && !OWN_SUBJECT.has(before.norm);
}

/** Subjects that are not the author: whom the request describes ("a tutor who could offer"). */
const OTHER_SUBJECT = new Set(['who', 'that', 'which', 'you', 'they', 'he', 'she', 'someone', 'somebody', 'anyone', 'anybody', 'whoever']);
const MODALS = new Set(['can', 'could', 'will', 'would', 'might', 'may', 'also', 'is', 'are', 'be', 'happy', 'able', 'willing', 'to']);

/** Whether the offer that starts at `start` is made by someone other than the author. */
function counterpartSubject(tokens: Token[], start: number): boolean {
  for (let k = start - 1; k >= 0 && k >= start - 4; k--) {
    if (OTHER_SUBJECT.has(tokens[k].norm)) return true;
    if (!MODALS.has(tokens[k].norm) || tokens[k].breakBefore) return false;
  }
  return false;
}

/**
 * Words that say when or how (weekends, mornings, remote, on site) are compared as constraints,
 * where a disagreement costs; as shared words they would make two people alike who only keep
 * the same hours.
 */
const WHEN_OR_HOW = new Set(['mode', 'daytype', 'daypart']);

/** Post-position request words: "drummer wanted", "Zimmer gesucht". */
const AFTER_SEEK = new Set(['wanted', 'needed', 'required', 'sought', 'gesucht', 'wanted!']);

/** Reads an intent's text. Pure and deterministic. */
export function readIntent(text: string, options: ReadOptions = {}): IntentReading {
  const uncued: Role = options.defaultRole ?? 'give';
  const words = { seek: [] as string[], give: [] as string[], refuse: [] as string[] };
  const seek: Record<string, number> = {};
  const give: Record<string, number> = {};
  const refuse = new Set<string>();
  const only = new Set<string>();
  const required = new Set<string>();
  const seekHead = new Set<string>();
  const served = new Set<string>();
  const places: PlaceRef[] = [];
  const soughtPlaces: PlaceRef[] = [];
  const cued = { seek: false, give: false };
  let headingRole: Role | null = null;

  for (const piece of pieces(text)) {
    const { tokens } = piece;
    const placeAt = new Map<number, PlaceRef>();
    // "We speak Korean and Greek": a nationality word read as a language names no place.
    const attrs = findAttributes(tokens);
    const langAt = new Set(attrs.filter((h) => h.dim === 'lang').map((h) => h.start));
    const whenOrHowAt = new Set<number>();
    for (const h of attrs) if (WHEN_OR_HOW.has(h.dim)) for (let k = h.start; k < h.end; k++) whenOrHowAt.add(k);
    for (const p of findPlaces(tokens)) {
      if (p.place.kind === 'country' && p.end - p.start === 1 && langAt.has(p.start)) continue;
      places.push(p.place);
      for (let k = p.start; k < p.end; k++) placeAt.set(k, p.place);
    }
    let role: Role = piece.bullet && headingRole ? headingRole : piece.question ? 'seek' : uncued;
    let explicit: boolean = piece.bullet && headingRole !== null;
    let audience = false;
    let negLeft = 0;
    let onlyLeft = 0;
    // Terms of this clause given by default (no cue yet): a post-position "wanted" makes them sought.
    let clauseDefault: Array<{ stem: string; raw: string }> = [];
    // Content words still to count as the head of the span a request cue opened.
    let headLeft = piece.question ? 2 : 0;
    let headTaken = false;
    // Inside an "if you ..." clause: cues turn round, and uncued words describe the counterpart.
    let addressed = false;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.breakBefore) {
        negLeft = 0;
        onlyLeft = 0;
        audience = false;
        clauseDefault = [];
        addressed = false;
      }
      if (addressed && FIRST_PERSON.has(t.norm)) addressed = false;
      if (t.norm === 'if' && ADDRESSED.has(tokens[i + 1]?.norm ?? '') && !tokens[i + 1].breakBefore) {
        addressed = true;
        role = 'seek';
        explicit = true;
        cued.seek = true;
        audience = false;
        clauseDefault = [];
        headLeft = 2;
        headTaken = false;
        i += 1;
        continue;
      }
      const ownRole = !addressed && ownRoleAt(tokens, i);
      if (ownRole) {
        // The role verb itself ("volunteer") and what follows "as" are the author's offer.
        role = 'give';
        audience = false;
        explicit = true;
        cued.give = true;
        headLeft = 0;
      }
      if (AFTER_SEEK.has(t.norm)) {
        for (const { stem, raw } of clauseDefault) {
          if (give[stem] !== undefined) delete give[stem];
          seek[stem] = 1;
          // The quoted words move with their stems (cards and a provider read them).
          const at = words.give.lastIndexOf(raw);
          if (at >= 0) words.give.splice(at, 1);
          words.seek.push(raw);
        }
        clauseDefault = [];
        cued.seek = true;
        continue;
      }
      const cue = cueAt(tokens, i);
      if (cue) {
        i += cue.words.length - 1;
        if (cue.kind === 'neg') {
          // "cannot find X", "we have no X", "there is no X": a lack, which is a need. A refusal
          // is a "no X" that follows no verb of having ("no agencies"), or "do not want X".
          const before = tokens[i - cue.words.length]?.norm ?? '';
          const after = tokens[i + 1]?.norm ?? '';
          const verbNegation = VERB_NEGATORS.has(t.norm) && !REFUSING_VERBS.has(after);
          if (verbNegation || LACK_BEFORE.has(before) || LACK_BEFORE.has(after)) {
            role = 'seek';
            explicit = true;
            cued.seek = true;
          } else negLeft = REFUSING_VERBS.has(after) ? 4 : 3;
        }
        else if (cue.kind === 'only') {
          onlyLeft = 3;
          // "X only": the words just before are the restriction too.
          for (let k = i - cue.words.length; k >= 0 && k >= i - cue.words.length - 2 && !tokens[k + 1]?.breakBefore; k--) {
            const s = contentStem(tokens[k]);
            if (s && !placeAt.has(k)) only.add(s);
          }
        } else if (cue.kind === 'required') {
          // "X essential": up to three words back in the clause, each of them required.
          for (let k = i - cue.words.length; k >= 0 && k >= i - cue.words.length - 2; k--) {
            const s = contentStem(tokens[k]);
            if (s && !placeAt.has(k)) required.add(s);
            if (tokens[k].breakBefore) break;
          }
        } else if (cue.kind === 'audience' || cue.kind === 'participle') {
          // "help as", "serve as": the role, already turned to giving above, not a serving verb.
          if (ownRole) continue;
          if (role === 'seek' && explicit) continue;
          // Only as a verb ("we back founders"), not as a noun ("a seed fund in Warsaw").
          if (cue.kind === 'audience' && !VERB_BEFORE.has(tokens[i - cue.words.length]?.norm ?? '')) {
            const s = contentStem(t);
            if (s && !placeAt.has(i)) (role === 'seek' ? seek : give)[s] = 1;
            continue;
          }
          const s = contentStem(t);
          if (s) give[s] = 1;
          audience = true;
          cued.give = true;
          role = 'give';
          explicit = true;
        } else {
          // "a warehouse with spare loading bays", "a van you could lend": inside a request, an
          // offer word after a noun, or made by someone other than the author, describes the
          // counterpart sought; the author turns to what they give with a subject of their own.
          if (cue.kind === 'give' && !addressed && role === 'seek' && explicit && ((cue.words.length === 1 && qualifiesNoun(tokens, i)) || counterpartSubject(tokens, i - cue.words.length + 1))) continue;
          const kind: Role = addressed ? (cue.kind === 'seek' ? 'give' : 'seek') : cue.kind;
          role = kind;
          audience = false;
          explicit = true;
          cued[kind] = true;
          clauseDefault = [];
          headLeft = kind === 'seek' ? 2 : 0;
          headTaken = false;
        }
        continue;
      }
      const placeHere = placeAt.get(i);
      if (placeHere && (audience || role === 'seek') && explicit) soughtPlaces.push(placeHere);
      const s = placeHere ? null : contentStem(t);
      if (s && whenOrHowAt.has(i)) {
        // Quoted as written, but compared as a constraint only (constraint-fit.ts).
        words[audience ? 'seek' : role].push(t.raw);
        continue;
      }
      if (!s) {
        // The head is the words right after the cue: "a plumber near the lake" is about a plumber.
        if (headTaken) headLeft = 0;
        continue;
      }
      if (negLeft > 0) {
        refuse.add(s);
        words.refuse.push(t.raw);
        negLeft -= 1;
        continue;
      }
      if (onlyLeft > 0) {
        only.add(s);
        onlyLeft -= 1;
      }
      const r: Role = audience ? 'seek' : role;
      (r === 'seek' ? seek : give)[s] = 1;
      if (audience) served.add(s);
      if (r === 'seek' && headLeft > 0) {
        seekHead.add(s);
        headLeft -= 1;
        headTaken = true;
      }
      words[r].push(t.raw);
      if (!explicit) clauseDefault.push({ stem: s, raw: t.raw });
    }
    // A list continues the line above it when that line is a heading ("What we need:") or a
    // request ("Hiring a lighting technician" over "- grip and rigging"): bullets with
    // no cue of their own qualify what the line asked for. Under any other line they stand alone.
    if (!piece.bullet) headingRole = explicit && (piece.heading || role === 'seek') ? role : null;
  }
  return {
    v: READING_VERSION,
    seek,
    give,
    refuse: [...refuse],
    only: [...only],
    required: [...required],
    seekHead: [...seekHead],
    audience: [...served],
    places: dedupePlaces(places),
    seekPlaces: dedupePlaces(soughtPlaces),
    constraints: readConstraints(text),
    cued,
    text: { seek: words.seek.join(' '), give: words.give.join(' '), refuse: words.refuse.join(' ') },
  };
}

function dedupePlaces(places: PlaceRef[]): PlaceRef[] {
  const seen = new Map<string, PlaceRef>();
  for (const p of places) seen.set(`${p.kind}:${p.key}:${p.area ?? ''}`, p);
  return [...seen.values()];
}

const statedCache = new WeakMap<IntentReading, { seek: Set<string>; give: Set<string> }>();

/**
 * Every stem one side's words state, words of when and how included: `seek` and `give` leave
 * those to the constraints, but a requirement ("weekends essential") or a quote of the text
 * names them as words.
 */
export function statedStems(r: IntentReading, side: Role): Set<string> {
  let cached = statedCache.get(r);
  if (!cached) {
    const of = (rec: Record<string, number>, text: string) => new Set([...Object.keys(rec), ...tokenize(text).map((t) => stemOf(t.norm))]);
    cached = { seek: of(r.seek, r.text.seek), give: of(r.give, r.text.give) };
    statedCache.set(r, cached);
  }
  return cached[side];
}

/**
 * The words of `text` whose stem is one of `stems`, as written and in order, one per stem: what
 * a message or a card quotes, so a reader sees the intents' own words and not the service's.
 */
export function quotedWords(text: string, stems: Iterable<string>, max = 3): string[] {
  const wanted = new Set(stems);
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (out.length >= max) break;
    const s = stemOf(t.norm);
    if (!wanted.delete(s)) continue;
    out.push(t.raw);
  }
  return out;
}

/** What two readings of one side say together (an intent and an answer its negotiator gave). */
export function mergeReadings(a: IntentReading, b: IntentReading): IntentReading {
  const join = (x: string, y: string) => [x, y].filter(Boolean).join(' ');
  return {
    ...a,
    seek: { ...a.seek, ...b.seek },
    give: { ...a.give, ...b.give },
    refuse: [...new Set([...a.refuse, ...b.refuse])],
    only: [...new Set([...a.only, ...b.only])],
    required: [...new Set([...a.required, ...b.required])],
    seekHead: [...new Set([...a.seekHead, ...b.seekHead])],
    audience: [...new Set([...a.audience, ...b.audience])],
    places: dedupePlaces([...a.places, ...b.places]),
    seekPlaces: dedupePlaces([...a.seekPlaces, ...b.seekPlaces]),
    cued: { seek: a.cued.seek || b.cued.seek, give: a.cued.give || b.cued.give },
    text: { seek: join(a.text.seek, b.text.seek), give: join(a.text.give, b.text.give), refuse: join(a.text.refuse, b.text.refuse) },
  };
}
