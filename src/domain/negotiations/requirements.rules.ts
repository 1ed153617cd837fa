import { mergeReadings, quotedWords, readIntent, statedStems } from '../reading/intent-reader';
import { idfFrom } from '../matching/term-stats';
import { generalRarity } from '../reading/english';
import { quantitiesOverlap, type Quantity } from '../reading/quantities';
import type { Dim, MoneyAmount } from '../matching/attributes.rules';
import { findAttributes, findMoney } from '../matching/attributes.rules';
import { extractFacets, type Facets } from '../matching/facets.rules';
import { findPlaces, placeCompatibility, type PlaceRef } from '../matching/geo.rules';
import { dimCompatibility } from '../matching/dimension-fit';
import { tokenize } from '../matching/text.rules';
import type { LimitedFacets } from './stated-limits.rules';

/**
 * An owner's requirements, read from their intent's facets, checked one by one against what
 * the other side has stated (its intent and its answers). Pure: the hosted negotiator, its
 * provider path and the card text all use these checks, so they never disagree on a fact.
 *
 * Keys: `need` (what the intent seeks is offered, or what it offers is sought), `place`,
 * `money`, `dim:<dim>` (stage, employment, mode, ...), `refusal:<what>` (something the intent
 * rules out).
 */
export type CheckStatus = 'holds' | 'unknown' | 'close' | 'contradicted';

export interface RequirementCheck {
  key: string;
  status: CheckStatus;
  /** Whose statement a contradiction comes from: this owner's requirement or the other side's. */
  by: 'mine' | 'theirs';
  dim?: Dim;
  /** This side's values (dims), words (as written), places or amounts, as stated. */
  mine: { values?: string[]; words?: string[]; places?: PlaceRef[]; money?: MoneyAmount[]; refusal?: string };
  theirs: { values?: string[]; words?: string[]; places?: PlaceRef[]; money?: MoneyAmount[] } | null;
  /** Why it fails, in a word (same-side, variant, unrelated, refused, ...). */
  reason?: string;
}


const ORDER = ['need', 'refusal', 'only', 'required', 'unavailable', 'level', 'place', 'amount', 'dim:stage', 'dim:employment', 'dim:mode', 'money', 'dim:pay'];

/**
 * The dimensions an intent makes part of the deal: those it states in what it seeks ("a sitter
 * for weekday evenings"), those it refuses a value of ("no pets"), and any it states as strict.
 * A value in its self-description ("we rehearse on weekends") describes the author; it is
 * compared when both sides state it, never asked about.
 */
function relevantDims(f: Facets): Set<Dim> {
  const dims = new Set<Dim>(findAttributes(tokenize(f.reading.text.seek)).map((h) => h.dim));
  for (const e of f.excludes) if (e.includes(':')) dims.add(e.split(':')[0] as Dim);
  for (const d of f.strict) dims.add(d);
  return dims;
}

const isRemote = (f: Facets) => (f.attrs.mode ?? []).some((m) => m === 'remote' || m === 'virtual') && !(f.attrs.mode ?? []).some((m) => m === 'onsite' || m === 'inperson');

/** 'ask': an unstated place is asked about; 'compare': only stated places are compared; null: place is not part of the deal. */
function placeRole(f: Facets): 'ask' | 'compare' | null {
  if (f.strict.includes('place')) return 'ask';
  if (isRemote(f)) return null;
  // "local", "within 30 miles of": the author says being near is part of the deal.
  if (nearby(f)) return 'ask';
  // A place named in what the intent seeks ("a workshop in Leeds") is where the counterpart must be.
  if (f.reading.seekPlaces.length) return 'ask';
  // Any other intent that names a place is compared with the other side's place when both state one.
  return 'compare';
}

const hiOf = (m: MoneyAmount) => (m.hi === null || m.hi === undefined || !Number.isFinite(m.hi) ? Infinity : m.hi);
const perUnit = (money: MoneyAmount[]) => money.filter((m) => m.unit !== 'total');

/** How far two amounts of the same unit are apart: 1 overlapping (with 20% slack), down to 0. */
function priceFit(a: MoneyAmount, b: MoneyAmount): number {
  if (a.lo <= hiOf(b) * 1.2 && b.lo <= hiOf(a) * 1.2) return 1;
  const gap = a.lo > hiOf(b) ? a.lo / Math.max(hiOf(b), 1) : b.lo / Math.max(hiOf(a), 1);
  return gap <= 1.5 ? 0.7 : 0.2;
}

function statusOfFit(f: number): CheckStatus {
  if (f >= 0.99) return 'holds';
  if (f >= 0.6) return 'close';
  return 'contradicted';
}

/**
 * Evidence at which the need holds: the weight of the words one side seeks that the other gives,
 * in both directions (the reverse at half weight). A word weighs its rarity between the two
 * intents times the square of its rarity in general English (NEED_RARITY_POWER), so a shared
 * specialist word proves the need and a few shared everyday words do not. Both chosen on the
 * first development set (docs/negotiation.md).
 */
const NEED_HOLDS = 1;
const NEED_RARITY_POWER = 2;
/**
 * The least share of the need's weight the other side must meet for it to hold, however rare
 * the shared words: a long, specific need met in one word ("an antibody" of another target, "a
 * postdoc" in another field) is asked, not accepted. Chosen leave-one-network-out over both
 * development sets (docs/negotiation.md); `NEED_TUNING` lets the evaluation script vary it.
 */
export const NEED_TUNING = { minShare: 0.2 };
/** How many times the evidence for a shared need must exceed that for a met one to call the sides rivals. */
const SAME_SIDE = 2;

/** The words as written whose stems are among `stems`, in order, at most four. */
const wordsFor = (text: string, stems: Set<string>): string[] => quotedWords(text, stems, 4);

/**
 * The need, read by the general reader: the share of what this intent seeks (each word weighed
 * by its rarity) that the other side gives, or, for an intent that only offers, the share of the
 * other side's need it gives. Enough of it holds; less is unknown and is asked, never declined:
 * words that do not meet are no proof that the other side cannot serve the need.
 */
export interface NeedEvidence {
  /** Whether this intent seeks (else its need is the other side's need it gives). */
  asker: boolean;
  /** The weight of the need, and of what of it is met (the reverse direction at half weight). */
  mass: number;
  got: number;
  /** The weight both sides seek alike: rivals after the same thing. */
  rival: number;
  headMet: boolean;
  met: Set<string>;
  rivalWords: Set<string>;
  sought: Record<string, number>;
}

export function needEvidence(mine: Facets, theirs: Facets): NeedEvidence {
  const a = mine.reading;
  const b = theirs.reading;
  const asker = Object.keys(a.seek).length > 0;
  const sought = asker ? a.seek : b.seek;
  const offered = asker ? b.give : a.give;
  const pairIdf = idfFrom([a, b]);
  const idf = (t: string) => pairIdf(t) * generalRarity(t) ** NEED_RARITY_POWER;
  let mass = 0;
  let got = 0;
  const met = new Set<string>();
  // Whom the seeking side serves ("we back fintech teams") is met by who the other side is,
  // wherever its text says so, its own request included ("raising our pre-seed to build a payments app").
  const serves = new Set(asker ? a.audience : b.audience);
  const otherSeeks = asker ? b.seek : a.seek;
  for (const t of Object.keys(sought)) {
    mass += idf(t);
    if (offered[t] === undefined && !(serves.has(t) && otherSeeks[t] !== undefined)) continue;
    got += idf(t);
    met.add(t);
  }
  const back = asker ? b.seek : {};
  for (const t of Object.keys(back)) if (a.give[t] !== undefined) got += 0.5 * idf(t);
  // Both after the same thing: what they share is the need itself, which neither answers.
  let rival = 0;
  const rivalWords = new Set<string>();
  // Whom a side serves ("we back seed-stage teams") is no need of its own.
  const served = new Set([...a.audience, ...b.audience]);
  if (asker) for (const t of Object.keys(a.seek)) if (b.seek[t] !== undefined && !served.has(t)) {
    rival += idf(t);
    rivalWords.add(t);
  }
  const headMet = (asker ? a.seekHead : b.seekHead).some((t) => met.has(t));
  return { asker, mass, got, rival, headMet, met, rivalWords, sought };
}

function needCheck(mine: Facets, theirs: Facets): RequirementCheck {
  const a = mine.reading;
  const b = theirs.reading;
  const { asker, mass, got, rival, headMet, met, rivalWords, sought } = needEvidence(mine, theirs);
  const soughtText = asker ? a.text.seek : b.text.seek;
  const offeredText = asker ? b.text.give : a.text.give;
  const base = {
    key: 'need',
    by: 'mine' as const,
    mine: { words: asker ? wordsFor(soughtText, met.size ? met : new Set(Object.keys(sought))) : wordsFor(offeredText, met) },
    theirs: { words: asker ? wordsFor(offeredText, met) : wordsFor(soughtText, met.size ? met : new Set(Object.keys(sought))) },
  };
  if (!mass) return { ...base, status: 'unknown', reason: 'not stated' };
  // Met only in names (a place, a make, a model; capitalised mid-sentence, and never written
  // otherwise, by either side): they speak of the same thing, which says nothing of whether one
  // offers what the other needs. Either side's writing counts: informal posts often write a
  // district or a product in lower case.
  const names = new Set([...((mine as LimitedFacets).limits?.names ?? []), ...((theirs as LimitedFacets).limits?.names ?? [])]);
  if (met.size && [...met].every((t) => names.has(t))) return { ...base, status: 'unknown', reason: 'names' };
  // The head of the need met ("looking for angel investors" and an angel who invests) needs half the share.
  const share = got / mass;
  if ((headMet ? share >= NEED_TUNING.minShare / 2 : got >= NEED_HOLDS && share >= NEED_TUNING.minShare) && rival < got) return { ...base, status: 'holds' };
  // Plainly after the same thing, and offering little of it: a rival, not a counterpart.
  // Everything one seeks the other seeks too, and nothing of it is offered: rivals as well.
  if (rival >= SAME_SIDE * Math.max(got, NEED_HOLDS) || (got === 0 && rival > 0 && rival >= mass * 0.99)) return { ...base, status: 'contradicted', reason: 'same-side', theirs: { words: wordsFor(b.text.seek, rivalWords) } };
  return { ...base, status: 'unknown', reason: rival >= got && rival > 0 ? 'same-side' : undefined };
}

/** Whether a side states a value of a dimension another refuses ("pet:any"); null when it states none. */
function refuses(excl: string, f: Facets): boolean | null {
  const [dim, v] = excl.split(':') as [Dim, string];
  const vals = f.attrs[dim];
  if (!vals?.length) return null;
  if (dim === 'pet' && (v === 'any' || vals.includes('any'))) return true;
  return vals.includes(v);
}

function refusalChecks(mine: Facets, theirs: Facets, relevant: Set<Dim>): RequirementCheck[] {
  const out: RequirementCheck[] = [];
  // What the general reader reads as refused ("no agencies"; a lack such as "can't afford a
  // lawyer" is a need, not a refusal) contradicts when the other side gives it.
  for (const stem of mine.reading.refuse) {
    if (theirs.reading.give[stem] === undefined) continue;
    const word = wordsFor(mine.reading.text.refuse, new Set([stem]))[0] ?? stem;
    out.push({ key: `refusal:${stem}`, by: 'mine', status: 'contradicted', mine: { refusal: word }, theirs: { words: wordsFor(theirs.reading.text.give, new Set([stem])) }, reason: 'refused' });
  }
  for (const e of mine.excludes) {
    if (!e.includes(':')) continue;
    const hit = refuses(e, theirs);
    const dim = e.includes(':') ? (e.split(':')[0] as Dim) : undefined;
    // Unknown only matters for a dimension this kind of introduction depends on ("no pets" for a room).
    if (hit === null && !(dim && relevant.has(dim))) continue;
    out.push({
      key: `refusal:${e}`,
      by: 'mine',
      dim,
      status: hit === null ? 'unknown' : hit ? 'contradicted' : 'holds',
      mine: { refusal: e },
      theirs: dim ? { values: theirs.attrs[dim] ?? [] } : null,
      reason: hit ? 'refused' : undefined,
    });
  }
  return out;
}

/**
 * "weddings only", "only teams we meet in person": the author takes only counterparts
 * that state what follows (or precedes) the word. Where the other side states none of it, the
 * owner decides (close): the words missing is no proof the other side breaks it.
 */
function onlyCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const stems = mine.reading.only;
  if (!stems.length) return null;
  const t = theirs.reading;
  const stated = stems.filter((s) => statedStems(t, 'give').has(s) || statedStems(t, 'seek').has(s));
  const words = wordsFor(`${mine.reading.text.seek} ${mine.reading.text.give}`, new Set(stems));
  // "Thanksgiving week only", "weekends only": a time, a mode or a price is a constraint the
  // dimension checks read; the restriction is theirs.
  if (!words.length || findAttributes(tokenize(words.join(' '))).length) return null;
  if (stated.length) return { key: 'only', by: 'mine', status: 'holds', mine: { words }, theirs: { words: wordsFor(`${t.text.give} ${t.text.seek}`, new Set(stated)) } };
  return { key: 'only', by: 'mine', status: 'close', mine: { words }, theirs: null, reason: 'only' };
}

/**
 * "X essential", "X mandatory": every such word must be stated by the other side; what it does
 * not state is asked (the words missing prove nothing, but accepting would leave a stated
 * requirement unchecked).
 */
function requiredCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const stems = mine.reading.required ?? [];
  if (!stems.length) return null;
  const t = theirs.reading;
  const missing = stems.filter((s) => !statedStems(t, 'give').has(s) && !statedStems(t, 'seek').has(s));
  const own = `${mine.reading.text.seek} ${mine.reading.text.give}`;
  const words = wordsFor(own, new Set(missing.length ? missing : stems));
  if (!missing.length) return { key: 'required', by: 'mine', status: 'holds', mine: { words }, theirs: { words: wordsFor(`${t.text.give} ${t.text.seek}`, new Set(stems)) } };
  return { key: 'required', by: 'mine', status: 'unknown', mine: { words }, theirs: null, reason: 'required' };
}

/**
 * What one side states it cannot do ("X is fully booked") that the other side seeks: the owner
 * decides (close), since a booked week may be one of several the other side could take.
 */
function unavailableCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const pair = (limited: Facets, seeker: Facets) => {
    const l = (limited as LimitedFacets).limits;
    const hit = (l?.unavailable ?? []).filter((s) => statedStems(seeker.reading, 'seek').has(s));
    return { hit, said: l?.words.unavailable.filter((_, i) => hit.includes(l.unavailable[i])) ?? [] };
  };
  const theirsOut = pair(theirs, mine);
  if (theirsOut.hit.length) return { key: 'unavailable', by: 'theirs', status: 'close', mine: { words: wordsFor(mine.reading.text.seek, new Set(theirsOut.hit)) }, theirs: { words: theirsOut.said }, reason: 'unavailable' };
  const mineOut = pair(mine, theirs);
  if (mineOut.hit.length) return { key: 'unavailable', by: 'mine', status: 'close', mine: { words: mineOut.said }, theirs: { words: wordsFor(theirs.reading.text.seek, new Set(mineOut.hit)) }, reason: 'unavailable' };
  return null;
}

/**
 * A level written as letters and a number on both sides ("ABC-2" against "ABC-1"): another
 * number is the owner's call, not a decline (the letters may stand for two things).
 */
function levelCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const a = (mine as LimitedFacets).limits;
  const b = (theirs as LimitedFacets).limits;
  if (!a || !b) return null;
  const shared = Object.keys(a.levels).filter((k) => b.levels[k]);
  if (!shared.length) return null;
  const apart = shared.filter((k) => !a.levels[k].some((n) => b.levels[k].includes(n)));
  const shown = apart.length ? apart : shared;
  const words = (l: typeof a) => shown.flatMap((k) => l.words.levels[k]).slice(0, 3);
  return { key: 'level', by: 'mine', status: apart.length ? 'close' : 'holds', mine: { words: words(a) }, theirs: { words: words(b) }, reason: apart.length ? 'level' : undefined };
}

/**
 * Counted amounts of the same thing on both sides ("10+ pallets" against "4 pallets", "5–8 kW"
 * against "20 kW"): apart, the owner decides (close); a number may count something else than
 * its neighbour word suggests, so it never declines on its own.
 */
function amountCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const a = mine.reading.constraints.amounts ?? [];
  const b = theirs.reading.constraints.amounts ?? [];
  const units = new Set(a.map((q) => q.unit).filter((u) => b.some((q) => q.unit === u)));
  if (!units.size) return null;
  const apart = [...units].filter((u) => !a.some((x) => x.unit === u && b.some((y) => y.unit === u && quantitiesOverlap(x, y))));
  const shown = apart.length ? apart : [...units];
  const words = (qs: Quantity[]) => qs.filter((q) => shown.includes(q.unit)).map((q) => q.text).slice(0, 3);
  return { key: 'amount', by: 'mine', status: apart.length ? 'close' : 'holds', mine: { words: words(a) }, theirs: { words: words(b) }, reason: apart.length ? 'amount' : undefined };
}

/** Dimensions whose plain mismatch declines even when not stated as strict. */
const DECISIVE_WHEN_FAR = new Set<Dim>(['stage', 'lang']);

/** Dimensions asked about when the other side does not state them. */
const ASKED_WHEN_SILENT = new Set<Dim>(['stage', 'lang']);

/** Dimensions compared for any intent, when both sides state them (the general reader's constraints). */
const ALWAYS_COMPARED: Dim[] = ['stage', 'lang', 'mode', 'employment'];

function dimChecks(mine: Facets, theirs: Facets, relevant: Set<Dim>): RequirementCheck[] {
  const out: RequirementCheck[] = [];
  for (const dim of new Set([...relevant, ...ALWAYS_COMPARED])) {
    if (dim === 'place') continue;
    const a = mine.attrs[dim];
    if (!a?.length) continue;
    const b = theirs.attrs[dim];
    if (!relevant.has(dim) && !b?.length) continue;
    const base = { key: `dim:${dim}`, by: 'mine' as const, dim, mine: { values: a } };
    // Offering to pay for what one needs asks nothing of the other side: nobody refuses pay.
    if (!b?.length && dim === 'pay' && a.every((v) => v === 'paid') && Object.keys(mine.reading.seek).length) continue;
    if (!b?.length) {
      // Silence on a detail (days, months, pay, the kind of contract) is for the two people to
      // settle; only a value stated as a requirement, a stage or a language is asked.
      if (mine.strict.includes(dim) || ASKED_WHEN_SILENT.has(dim)) out.push({ ...base, status: 'unknown', theirs: null });
      continue;
    }
    const strict = mine.strict.includes(dim) || theirs.strict.includes(dim);
    const fit = statusOfFit(dimCompatibility(dim, a, b, strict));
    // A mismatch declines where a side states the value as a requirement, or where a stage or a
    // language is plainly another (seed against Series C); otherwise the owner decides.
    const status: CheckStatus = strict ? (fit === 'holds' ? 'holds' : 'contradicted') : fit === 'contradicted' && !DECISIVE_WHEN_FAR.has(dim) ? 'close' : fit;
    out.push({ ...base, status, theirs: { values: b }, reason: status === 'contradicted' ? 'mismatch' : undefined });
  }
  return out;
}

const nearby = (f: Facets) => (f as LimitedFacets).limits?.nearby === true;

function placeCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const role = placeRole(mine);
  // Near where the author is, and where that is the rules cannot read: only the owner can tell.
  // Meeting remotely now and then does not make someone local.
  if (!mine.places.length && role === 'ask' && nearby(mine)) {
    return { key: 'place', by: 'mine', status: 'unknown', mine: { places: [], words: (mine as LimitedFacets).limits?.words.nearby.slice(0, 1) }, theirs: theirs.places.length ? { places: theirs.places } : null };
  }
  if (!mine.places.length || !role) return null;
  const base = { key: 'place', by: 'mine' as const, mine: { places: mine.places } };
  if (!theirs.places.length) {
    if (role === 'compare' || (isRemote(theirs) && !mine.strict.includes('place') && !nearby(mine))) return null;
    return { ...base, status: 'unknown', theirs: null };
  }
  let best = 0;
  for (const p of mine.places) for (const q of theirs.places) best = Math.max(best, placeCompatibility(p, q));
  const strict = mine.strict.includes('place') || theirs.strict.includes('place');
  // Far apart declines only where a side makes place a requirement ("only", "no relocation");
  // otherwise the owner decides: a place named in passing is no requirement, and a town's name
  // may be another town's.
  let status: CheckStatus = best >= 0.75 ? 'holds' : best >= 0.4 || !strict ? 'close' : 'contradicted';
  if (strict && status === 'close') status = 'contradicted';
  return { ...base, status, theirs: { places: theirs.places }, reason: status === 'contradicted' ? 'far' : undefined };
}

/**
 * Prices per unit (per month, per hour, per visit) both sides state in the same unit and
 * currency: apart, the owner decides or, far apart, it is a contradiction. A side that states no
 * price leaves it to the two people (an amount per month may be a volume, not a price).
 */
function moneyCheck(mine: Facets, theirs: Facets): RequirementCheck | null {
  const mineP = perUnit(mine.money);
  if (!mineP.length) return null;
  const theirP = perUnit(theirs.money);
  if (!theirP.length) return null;
  let best = 0;
  let comparable = false;
  for (const m of mineP) {
    for (const n of theirP) {
      if (m.unit !== n.unit) continue;
      comparable = true;
      best = Math.max(best, priceFit(m, n));
    }
  }
  if (!comparable) return { key: 'money', by: 'mine', status: 'unknown', mine: { money: mineP }, theirs: { money: theirP } };
  const status = statusOfFit(best);
  return { key: 'money', by: 'mine', status, mine: { money: mineP }, theirs: { money: theirP }, reason: status === 'contradicted' ? 'price' : undefined };
}

/** The other side's explicit refusals and strict or relevant constraints that this side's statements break. */
export function theirConflicts(mine: Facets, theirs: Facets): RequirementCheck[] {
  const out: RequirementCheck[] = [];
  // What the other side refuses and this side gives ("no agencies" against an agency), read by
  // the reader; and a value of a dimension it refuses ("no pets" against a cat).
  for (const stem of theirs.reading.refuse) {
    if (mine.reading.give[stem] === undefined) continue;
    out.push({ key: `refusal:${stem}`, by: 'theirs', status: 'contradicted', mine: { words: wordsFor(mine.reading.text.give, new Set([stem])) }, theirs: null, reason: 'refused' });
  }
  for (const e of theirs.excludes) {
    if (!e.includes(':') || refuses(e, mine) !== true) continue;
    const dim = e.split(':')[0] as Dim;
    out.push({ key: `refusal:${e}`, by: 'theirs', dim, status: 'contradicted', mine: { values: mine.attrs[dim] ?? [] }, theirs: null, reason: 'refused' });
  }
  const dims = relevantDims(theirs);
  for (const dim of dims) {
    const a = mine.attrs[dim];
    const b = theirs.attrs[dim];
    if (!a?.length || !b?.length || dim === 'place') continue;
    const strict = theirs.strict.includes(dim);
    const f = dimCompatibility(dim, b, a, strict);
    if (f < 0.6 || (strict && f < 0.99)) out.push({ key: `dim:${dim}`, by: 'theirs', dim, status: 'contradicted', mine: { values: a }, theirs: { values: b }, reason: 'mismatch' });
  }
  if (theirs.strict.includes('place') && theirs.places.length && mine.places.length) {
    let best = 0;
    for (const p of theirs.places) for (const q of mine.places) best = Math.max(best, placeCompatibility(p, q));
    if (best < 0.75) out.push({ key: 'place', by: 'theirs', status: 'contradicted', mine: { places: mine.places }, theirs: { places: theirs.places }, reason: 'far' });
  }
  return out;
}

/** This owner's requirements against the other side, most important first. */
export function checkRequirements(mine: Facets, theirs: Facets, overrides: Record<string, 'holds' | 'contradicted'> = {}): RequirementCheck[] {
  const relevant = relevantDims(mine);
  const checks: RequirementCheck[] = [needCheck(mine, theirs), ...refusalChecks(mine, theirs, relevant)];
  const only = onlyCheck(mine, theirs);
  if (only) checks.push(only);
  const required = requiredCheck(mine, theirs);
  if (required) checks.push(required);
  const amount = amountCheck(mine, theirs);
  if (amount) checks.push(amount);
  for (const c of [unavailableCheck(mine, theirs), levelCheck(mine, theirs)]) if (c) checks.push(c);
  const place = placeCheck(mine, theirs);
  if (place) checks.push(place);
  checks.push(...dimChecks(mine, theirs, relevant));
  const money = moneyCheck(mine, theirs);
  if (money) checks.push(money);
  const rank = (k: string) => {
    const i = ORDER.findIndex((o) => k === o || k.startsWith(`${o}:`));
    return i < 0 ? ORDER.length : i;
  };
  return checks
    .map((c) => (overrides[c.key] && c.status !== 'contradicted' ? { ...c, status: overrides[c.key] } : overrides[c.key] === 'contradicted' ? { ...c, status: 'contradicted' as const, reason: c.reason ?? 'answered no' } : c))
    .sort((a, b) => rank(a.key) - rank(b.key));
}

// ---- answers and questions in free text ----


const YES = /^\s*(yes|yep|yeah|yup|sure|ok|okay|fine|correct|right|absolutely|definitely|of course|indeed|go ahead|that works|works for me|confirmed?|we do|i do|it is|they are|we are|i am|no problem|no worries)\b/i;
const NO = /^\s*(no|nope|nah|not|never|negative|we don'?t|i don'?t|we do not|i do not|don'?t|do not|pass|unfortunately)\b(?!\s+(problem|worries|issue|sure)\b)/i;

/** A plain yes or no at the start of an answer; null when it says neither. */
export function yesOrNo(text: string): 'yes' | 'no' | null {
  const t = text.replace(/^[\s"'“«(-]+/, '');
  if (YES.test(t)) return 'yes';
  if (NO.test(t)) return 'no';
  return null;
}

/** The sentences of a message that ask something. */
export function questionsIn(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/(?<=[?.!])\s+|\n+/)) {
    const s = raw.replace(/^\s*(question|q)\s*:\s*/i, '').trim();
    if (s.endsWith('?') && /[a-z]/i.test(s)) out.push(s);
  }
  return out;
}

const KEYWORDS: Array<[RegExp, string]> = [
  [/\b(where|based|located|location|city|country|relocat\w*|local|nearby|near|distance|area)\b/i, 'place'],
  [/\b(stage|round|pre-?seed|seed|series [a-d])\b/i, 'dim:stage'],
  [/\b(full[- ]time|part[- ]time|contract|freelance|interim|fractional|days a week|hours a week|permanent)\b/i, 'dim:employment'],
  [/\b(remote|remotely|on-?site|in person|in-person|hybrid|office|online|virtual)\b/i, 'dim:mode'],
  [/\b(budget|rate|price|cost|fee|salary|how much|ticket|cheque|check size|rent)\b|[$€£]\s?\d/i, 'money'],
  [/\b(paid|unpaid|volunteer|pro bono|revenue share|rev share)\b/i, 'dim:pay'],
  [/\b(weekends?|weekdays?)\b/i, 'dim:daytype'],
  [/\b(mornings?|afternoons?|evenings?|nights?)\b/i, 'dim:daypart'],
  [/\b(when|start date|month|season|summer|winter|spring|autumn|fall)\b/i, 'dim:month'],
  [/\b(language|speak|fluent|native)\b/i, 'dim:lang'],
  [/\b(pets?|dogs?|cats?)\b/i, 'dim:pet'],
  [/\b(do you (offer|provide|have|do)|can you|are you (looking|a|an)|what do you (offer|need|look)|looking for)\b/i, 'need'],
];

/** What a question is about, as requirement keys (empty when no rule recognises it). */
export function questionKeys(question: string): string[] {
  const keys = new Set<string>();
  const tokens = tokenize(question);
  for (const h of findAttributes(tokens)) keys.add(h.dim === 'place' ? 'place' : `dim:${h.dim}`);
  if (findPlaces(tokens).length) keys.add('place');
  if (findMoney(question).length) keys.add('money');
  for (const [re, key] of KEYWORDS) if (re.test(question)) keys.add(key);
  // A value mentioned only as the subject of the question's topic ("budget" mentions pay) stays one topic.
  if (keys.has('money')) keys.delete('dim:pay');
  return [...keys];
}

function emptyFacets(): Facets {
  return { v: 0, excludes: [], attrs: {}, strict: [], places: [], money: [], reading: readIntent('') };
}

/**
 * What an answer adds to the side that gave it, for one requirement key: only the part of the
 * text that speaks to that key is taken, so restated facts about the asker are not mistaken
 * for the answerer's own.
 */
export function answerFacets(key: string, text: string): Facets {
  const said = extractFacets(text);
  const out = emptyFacets();
  if (key === 'need') {
    out.reading = said.reading;
  } else if (key === 'place') {
    out.places = said.places;
  } else if (key === 'money') {
    out.money = said.money;
  } else if (key.startsWith('dim:')) {
    const dim = key.slice(4) as Dim;
    if (said.attrs[dim]) out.attrs[dim] = said.attrs[dim];
    out.excludes = said.excludes.filter((e) => e.startsWith(`${dim}:`));
  } else if (key.startsWith('refusal:')) {
    const what = key.slice('refusal:'.length);
    const dim = what.includes(':') ? (what.split(':')[0] as Dim) : null;
    if (dim && said.attrs[dim]) out.attrs[dim] = said.attrs[dim];
    if (!dim) out.reading = said.reading;
  }
  return out;
}

/** Adds what an answer said to a side's facets. */
export function mergeFacets(base: Facets, extra: Facets): Facets {
  const attrs: Facets['attrs'] = { ...base.attrs };
  for (const [dim, vals] of Object.entries(extra.attrs) as Array<[Dim, string[]]>) attrs[dim] = [...new Set([...(attrs[dim] ?? []), ...vals])];
  return {
    ...base,
    excludes: [...new Set([...base.excludes, ...extra.excludes])],
    attrs,
    places: [...base.places, ...extra.places],
    money: [...base.money, ...extra.money],
    reading: mergeReadings(base.reading, extra.reading),
  };
}

/**
 * How a reply settles the question asked about `key`: a no settles it; a yes with values is
 * left to the checks to compare; a bare yes settles it. For a refusal ("Do you have pets?") the
 * polarity turns: yes breaks it, no keeps it.
 */
export function verdictOfReply(key: string, text: string): 'holds' | 'contradicted' | null {
  const yn = yesOrNo(text);
  const refusal = key.startsWith('refusal:');
  // A plain no settles it whatever values follow ("No, I am away all of November").
  if (yn === 'no') return refusal ? 'holds' : 'contradicted';
  const added = answerFacets(key, text);
  const saysValues =
    Object.keys(added.attrs).length > 0 || added.places.length > 0 || added.money.length > 0 || Object.keys(added.reading.give).length > 0;
  // A yes with values ("Yes, but only Series D") is read by its values.
  if (saysValues || !yn) return null;
  return refusal ? 'contradicted' : 'holds';
}

/** The statements of a message without its questions (an answer is read from these). */
export function statementsOf(text: string): string {
  return text
    .split(/(?<=[?.!])\s+|\n+/)
    .filter((s) => s.trim() && !s.trim().endsWith('?'))
    .join(' ');
}

/** "Do you have pets? Ivy's intent rules them out.": asks whether the answerer has what the asker refuses. */
const RULES_OUT = /\brules? (?:them|it) out\b/i;

/**
 * True when an answer to the other side's question says no to what it asks: a plain no (a yes
 * to a question about something the asker rules out), a value this side refuses ("not
 * interim"), or statements that contradict it (answerContradicts). Such an answer is never
 * sent with an acceptance: the asker has to read it first.
 */
export function answerIsNegative(question: string, answer: string, mine: Facets): boolean {
  const yn = yesOrNo(answer);
  if (RULES_OUT.test(question) ? yn === 'yes' : yn === 'no') return true;
  const asked = extractFacets(question);
  for (const [dim, vals] of Object.entries(asked.attrs) as Array<[Dim, string[]]>) {
    if (vals.length && vals.every((v) => mine.excludes.includes(`${dim}:${v}`))) return true;
  }
  return answerContradicts(question, mine);
}

/**
 * True when this side's own statements answer a question of the other side in the negative:
 * the question names values (a stage, a place, a trade) and this side states others. An answer
 * like that must not come with an acceptance: the asker has to see it first.
 */
export function answerContradicts(question: string, mine: Facets): boolean {
  const asked = extractFacets(question);
  for (const [dim, vals] of Object.entries(asked.attrs) as Array<[Dim, string[]]>) {
    const own = mine.attrs[dim];
    if (own?.length && vals.length && dimCompatibility(dim, vals, own, false) < 0.6) return true;
  }
  if (asked.places.length && mine.places.length) {
    let best = 0;
    for (const p of asked.places) for (const q of mine.places) best = Math.max(best, placeCompatibility(p, q));
    if (best < 0.4) return true;
  }
  return false;
}
