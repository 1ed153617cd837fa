import { createRequire } from 'node:module';
import type { Token } from './text.rules';
import { stripAccents } from './text.rules';
import { wordCount } from '../reading/english';

/**
 * A place an intent names: a city (with coordinates), a province or state (with the mean of its
 * cities' coordinates), a country, a region, or a side of town.
 */
export interface PlaceRef {
  kind: 'city' | 'province' | 'country' | 'region' | 'area';
  key: string;
  country?: string;
  regions?: string[];
  lat?: number;
  lng?: number;
  /** Side of town ("west leeds", "the north end"). */
  area?: string;
  /** A city's province or state (its key), for "in Nebraska" against Omaha. */
  province?: string;
}

/** Countries: ISO code → names, demonyms, and the regions they belong to. */
const COUNTRIES: Array<[string, string, string, string]> = [
  // iso2 | names | demonyms/languages | regions
  ['US', 'united states,usa,us,u.s.,america,united states of america', 'american', 'north-america,americas'],
  ['CA', 'canada', 'canadian', 'north-america,americas'],
  ['MX', 'mexico', 'mexican', 'latam,americas,north-america'],
  ['BR', 'brazil', 'brazilian', 'latam,americas,south-america'],
  ['AR', 'argentina', 'argentinian,argentine', 'latam,americas,south-america'],
  ['CL', 'chile', 'chilean', 'latam,americas,south-america'],
  ['CO', 'colombia', 'colombian', 'latam,americas,south-america'],
  ['PE', 'peru', 'peruvian', 'latam,americas,south-america'],
  ['GB', 'united kingdom,uk,britain,great britain,england,scotland,wales', 'british,english,scottish,welsh', 'europe,british-isles,western-europe'],
  ['IE', 'ireland', 'irish', 'europe,eu,british-isles,western-europe'],
  ['FR', 'france', 'french', 'europe,eu,western-europe'],
  ['DE', 'germany', 'german', 'europe,eu,western-europe,dach,central-europe'],
  ['AT', 'austria', 'austrian', 'europe,eu,dach,central-europe'],
  ['CH', 'switzerland', 'swiss', 'europe,dach,western-europe'],
  ['NL', 'netherlands,holland', 'dutch', 'europe,eu,western-europe,benelux'],
  ['BE', 'belgium', 'belgian', 'europe,eu,western-europe,benelux'],
  ['LU', 'luxembourg', 'luxembourgish', 'europe,eu,western-europe,benelux'],
  ['ES', 'spain', 'spanish', 'europe,eu,southern-europe'],
  ['PT', 'portugal', 'portuguese', 'europe,eu,southern-europe'],
  ['IT', 'italy', 'italian', 'europe,eu,southern-europe'],
  ['GR', 'greece', 'greek', 'europe,eu,southern-europe'],
  ['MT', 'malta', 'maltese', 'europe,eu,southern-europe'],
  ['CY', 'cyprus', 'cypriot', 'europe,eu,southern-europe'],
  ['DK', 'denmark', 'danish', 'europe,eu,nordics,northern-europe'],
  ['SE', 'sweden', 'swedish', 'europe,eu,nordics,northern-europe'],
  ['NO', 'norway', 'norwegian', 'europe,nordics,northern-europe'],
  ['FI', 'finland', 'finnish', 'europe,eu,nordics,northern-europe'],
  ['IS', 'iceland', 'icelandic', 'europe,nordics,northern-europe'],
  ['PL', 'poland', 'polish', 'europe,eu,cee,central-europe'],
  ['CZ', 'czechia,czech republic', 'czech', 'europe,eu,cee,central-europe'],
  ['SK', 'slovakia', 'slovak', 'europe,eu,cee,central-europe'],
  ['HU', 'hungary', 'hungarian', 'europe,eu,cee,central-europe'],
  ['SI', 'slovenia', 'slovenian', 'europe,eu,cee,central-europe'],
  ['RO', 'romania', 'romanian', 'europe,eu,cee,eastern-europe'],
  ['BG', 'bulgaria', 'bulgarian', 'europe,eu,cee,eastern-europe'],
  ['HR', 'croatia', 'croatian', 'europe,eu,cee,southern-europe'],
  ['RS', 'serbia', 'serbian', 'europe,cee,eastern-europe'],
  ['LT', 'lithuania', 'lithuanian', 'europe,eu,cee,baltics,northern-europe'],
  ['LV', 'latvia', 'latvian', 'europe,eu,cee,baltics,northern-europe'],
  ['EE', 'estonia', 'estonian', 'europe,eu,cee,baltics,northern-europe'],
  ['UA', 'ukraine', 'ukrainian', 'europe,cee,eastern-europe'],
  ['MD', 'moldova', 'moldovan', 'europe,cee,eastern-europe'],
  ['TR', 'turkey,turkiye', 'turkish', 'europe,middle-east'],
  ['IL', 'israel', 'israeli', 'middle-east'],
  ['AE', 'united arab emirates,uae', 'emirati', 'middle-east,mena'],
  ['SA', 'saudi arabia', 'saudi', 'middle-east,mena'],
  ['EG', 'egypt', 'egyptian', 'africa,mena,north-africa'],
  ['MA', 'morocco', 'moroccan', 'africa,mena,north-africa'],
  ['NG', 'nigeria', 'nigerian', 'africa,west-africa'],
  ['GH', 'ghana', 'ghanaian', 'africa,west-africa'],
  ['KE', 'kenya', 'kenyan', 'africa,east-africa'],
  ['UG', 'uganda', 'ugandan', 'africa,east-africa'],
  ['TZ', 'tanzania', 'tanzanian', 'africa,east-africa'],
  ['RW', 'rwanda', 'rwandan', 'africa,east-africa'],
  ['ET', 'ethiopia', 'ethiopian', 'africa,east-africa'],
  ['ZA', 'south africa', 'south african', 'africa,southern-africa'],
  ['IN', 'india', 'indian', 'asia,south-asia'],
  ['PK', 'pakistan', 'pakistani', 'asia,south-asia'],
  ['BD', 'bangladesh', 'bangladeshi', 'asia,south-asia'],
  ['CN', 'china', 'chinese', 'asia,east-asia'],
  ['JP', 'japan', 'japanese', 'asia,east-asia'],
  ['KR', 'south korea,korea', 'korean', 'asia,east-asia'],
  ['TW', 'taiwan', 'taiwanese', 'asia,east-asia'],
  ['SG', 'singapore', 'singaporean', 'asia,southeast-asia'],
  ['PH', 'philippines', 'filipino', 'asia,southeast-asia'],
  ['ID', 'indonesia', 'indonesian', 'asia,southeast-asia'],
  ['VN', 'vietnam', 'vietnamese', 'asia,southeast-asia'],
  ['TH', 'thailand', 'thai', 'asia,southeast-asia'],
  ['MY', 'malaysia', 'malaysian', 'asia,southeast-asia'],
  ['AU', 'australia', 'australian', 'oceania,apac'],
  ['NZ', 'new zealand', 'new zealander,kiwi', 'oceania,apac'],
];

/** Regions: names → key, and which regions contain which. */
const REGIONS: Array<[string, string]> = [
  ['europe', 'europe,european,emea'],
  ['eu', 'eu,european union,within the eu,eea'],
  ['cee', 'cee,central and eastern europe,central and eastern european,central eastern europe,central europe and eastern europe,eastern europe,eastern european,central europe,central european'],
  ['baltics', 'baltics,baltic,baltic states'],
  ['nordics', 'nordics,nordic,scandinavia,scandinavian'],
  ['southern-europe', 'southern europe,southern european,south europe,mediterranean'],
  ['western-europe', 'western europe,western european'],
  ['northern-europe', 'northern europe,northern european'],
  ['dach', 'dach'],
  ['benelux', 'benelux'],
  ['north-america', 'north america,north american'],
  ['latam', 'latam,latin america,latin american,south america,south american'],
  ['africa', 'africa,african'],
  ['east-africa', 'east africa,east african'],
  ['west-africa', 'west africa,west african'],
  ['asia', 'asia,asian,apac'],
  ['southeast-asia', 'southeast asia,south east asia,sea region'],
  ['middle-east', 'middle east,mena,gulf'],
  ['oceania', 'oceania,anz'],
];

const REGION_PARENTS: Record<string, string[]> = {
  eu: ['europe'],
  cee: ['europe'],
  baltics: ['cee', 'europe', 'northern-europe'],
  nordics: ['europe', 'northern-europe'],
  'southern-europe': ['europe'],
  'western-europe': ['europe'],
  'northern-europe': ['europe'],
  'central-europe': ['europe', 'cee'],
  'eastern-europe': ['europe', 'cee'],
  dach: ['europe', 'western-europe'],
  benelux: ['europe', 'western-europe'],
  'british-isles': ['europe'],
  'east-africa': ['africa'],
  'west-africa': ['africa'],
  'north-africa': ['africa'],
  'southern-africa': ['africa'],
  'southeast-asia': ['asia'],
  'east-asia': ['asia'],
  'south-asia': ['asia'],
  'south-america': ['latam', 'americas'],
  latam: ['americas'],
  'north-america': ['americas'],
};

/** City-name words that are also ordinary words or first names: never read as places on their own. */
const CITY_STOP = new Set(
  'mobile reading nice split tours sale bath nancy victoria florence regina santos natal hope deal march may orange aurora independence mesa concord surprise lincoln jackson hamilton sur pali gaya como sari beni anda kota palu troy salem marion richmond wellington york washington columbia arlington union university ontario quebec georgia jordan chad niger turkey china india israel lima cork essen bonn kiel tema asia delhi gent sucre temuco talca dili manta cuenca patra bello cali pasto tulua neiva sohag qena suez aswan luxor harar dese parana salta perth mainz linz graz ganca brest minsk varna ruse boma beni kindu reims metz rennes angers caen toulon nimes dijon rouen lille kassel erfurt furth lubeck bremen tanta benha zagreb'
    .split(' ')
    .filter((w) => !['delhi', 'essen', 'bonn', 'kiel', 'perth', 'mainz', 'linz', 'graz', 'minsk', 'reims', 'metz', 'rennes', 'angers', 'caen', 'toulon', 'nimes', 'dijon', 'rouen', 'lille', 'kassel', 'erfurt', 'bremen', 'zagreb', 'lubeck', 'varna', 'brest', 'cork'].includes(w)),
);

/** Boroughs and districts people name instead of their city. */
const CITY_ALIASES: Record<string, string> = {
  brooklyn: 'new york',
  manhattan: 'new york',
  queens: 'new york',
  bronx: 'new york',
  nyc: 'new york',
  sf: 'san francisco',
  'bay area': 'san francisco',
  'silicon valley': 'san jose',
  la: 'los angeles',
  montreal: 'montreal',
  'washington dc': 'washington',
  dc: 'washington',
};

interface CityRow {
  city: string;
  city_ascii: string;
  lat: number;
  lng: number;
  pop: number;
  iso2: string;
  province?: string;
  state_ansi?: string;
}

/** Cities this large are read by name wherever they are written (capitalised or, for longer names, not). */
const CITY_MIN_POP = 150_000;
/**
 * Smaller cities down to this size are read too, but only capitalised as written, not after
 * another name (a surname is often a small town's name), and only when
 * their name is no everyday English word or common first name (SUBTLEX-US count below
 * SMALL_CITY_MAX_WORD_COUNT): a town of 60,000 is named by the people who live there, and
 * "Temple" or "Logan" is more often something else.
 */
const SMALL_CITY_MIN_POP = 50_000;
const SMALL_CITY_MAX_WORD_COUNT = 300;

/** The least population (over the data's cities) at which a province's name is read as a place. */
const PROVINCE_MIN_POP = 100_000;

interface Gazetteer {
  phrases: Map<string, PlaceRef>;
  maxWords: number;
  /** US state codes ("NY", "PA"): read only in capitals after a capitalised word ("Albany, NY"). */
  stateCodes: Map<string, PlaceRef>;
  /** Every city of the data, whatever its size, by `name|province key`: "Springfield IL" is not Springfield MO. */
  cityInProvince: Map<string, PlaceRef>;
  /** Phrases that name only a smaller city: read only when capitalised as written. */
  small: Set<string>;
}

let gazetteer: Gazetteer | null = null;

function norm(s: string): string {
  return stripAccents(s).toLowerCase().replace(/[.]/g, '').replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function countryRegions(iso2: string): string[] {
  const row = COUNTRIES.find((c) => c[0] === iso2);
  return row ? row[3].split(',') : [];
}

function buildGazetteer(): Gazetteer {
  const phrases = new Map<string, PlaceRef>();
  const require_ = createRequire(__filename);
  const rows = require_('city-timezones/data/cityMap.json') as CityRow[];
  // Larger cities win a shared name (Portland OR over Portland ME is not decidable; population is the best prior).
  const provinceKey = (r: CityRow) => (r.province ? `${String(r.iso2).toLowerCase()}:${norm(r.province)}` : undefined);
  const cityRef = (r: CityRow): PlaceRef => ({ kind: 'city', key: norm(r.city_ascii), country: r.iso2, regions: countryRegions(r.iso2), lat: r.lat, lng: r.lng, province: provinceKey(r) });
  const sorted = [...rows].filter((r) => r.pop >= SMALL_CITY_MIN_POP).sort((a, b) => b.pop - a.pop);
  const small = new Set<string>();
  for (const r of sorted) {
    const name = norm(r.city_ascii);
    if (!name || CITY_STOP.has(name) || phrases.has(name)) continue;
    if (r.pop < CITY_MIN_POP) {
      if (name.split(' ').some((w) => wordCount(w) >= SMALL_CITY_MAX_WORD_COUNT)) continue;
      small.add(name);
    }
    phrases.set(name, cityRef(r));
  }
  // Provinces and states, placed at the population-weighted mean of their cities.
  const provinces = new Map<string, { name: string; iso2: string; code?: string; lat: number; lng: number; pop: number }>();
  const cityInProvince = new Map<string, PlaceRef>();
  for (const r of rows) {
    const key = provinceKey(r);
    if (!key || !r.province) continue;
    const w = Math.max(r.pop, 1);
    const p = provinces.get(key) ?? { name: norm(r.province), iso2: r.iso2, code: r.state_ansi, lat: 0, lng: 0, pop: 0 };
    p.lat += r.lat * w;
    p.lng += r.lng * w;
    p.pop += w;
    provinces.set(key, p);
    const at = `${norm(r.city_ascii)}|${key}`;
    if (!cityInProvince.has(at)) cityInProvince.set(at, cityRef(r));
  }
  const stateCodes = new Map<string, PlaceRef>();
  for (const [key, p] of provinces) {
    const ref: PlaceRef = { kind: 'province', key, country: p.iso2, regions: countryRegions(p.iso2), lat: p.lat / p.pop, lng: p.lng / p.pop };
    if (p.code && p.iso2 === 'US') stateCodes.set(p.code.toLowerCase(), ref);
    // Small provinces' names are mostly words or other places' names to a reader: the larger ones only.
    // (A US state is always one: the data lists them all.)
    if (p.name.length < 4 || (p.pop < PROVINCE_MIN_POP && !p.code) || CITY_STOP.has(p.name) || phrases.has(p.name)) continue;
    phrases.set(p.name, ref);
  }
  for (const [alias, target] of Object.entries(CITY_ALIASES)) {
    const t = phrases.get(target);
    if (t) phrases.set(alias, t);
  }
  for (const [iso2, names, demonyms, regions] of COUNTRIES) {
    const ref: PlaceRef = { kind: 'country', key: iso2, country: iso2, regions: regions.split(',') };
    for (const n of [...names.split(','), ...demonyms.split(',')]) phrases.set(norm(n), ref);
  }
  for (const [key, names] of REGIONS) {
    const ref: PlaceRef = { kind: 'region', key, regions: [key, ...(REGION_PARENTS[key] ?? [])] };
    for (const n of names.split(',')) phrases.set(norm(n), ref);
  }
  let maxWords = 1;
  for (const k of phrases.keys()) maxWords = Math.max(maxWords, k.split(' ').length);
  for (const name of small) if (phrases.get(name)?.kind !== 'city') small.delete(name);
  return { phrases, maxWords, stateCodes, cityInProvince, small };
}

function gaz(): Gazetteer {
  gazetteer ??= buildGazetteer();
  return gazetteer;
}

const AREAS = new Set(['east', 'west', 'north', 'south', 'central', 'downtown', 'northeast', 'northwest', 'southeast', 'southwest']);
/** Short country codes that are also English words; they count only when written in capitals. */
const CAPS_ONLY = new Set(['us', 'la', 'dc', 'sf', 'uk']);

const capitalised = (t: Token | undefined) => !!t && /^\p{Lu}/u.test(t.raw);

/** Whether a capitalised word stands right before (not opening the sentence) or right after the span. */
function partOfLongerName(tokens: Token[], start: number, end: number): boolean {
  const before = tokens[start - 1];
  const after = tokens[end];
  const beforeIsName = capitalised(before) && start - 1 > 0 && !before.breakBefore && !tokens[start].breakBefore;
  const afterIsName = capitalised(after) && !after.breakBefore;
  return beforeIsName || afterIsName;
}

/** Whether a capitalised word that does not open the sentence stands right before: "Ana Kovacs". */
function afterName(tokens: Token[], start: number): boolean {
  const before = tokens[start - 1];
  return capitalised(before) && start - 1 > 0 && !before.breakBefore && !tokens[start].breakBefore;
}

export interface PlaceMatch {
  place: PlaceRef;
  start: number;
  end: number;
}

/**
 * Finds places in a token run: the longest known phrase at each position. A one-word city must
 * be capitalised as written, or be a large city, so that ordinary words are not read as towns.
 */
export function findPlaces(tokens: Token[]): PlaceMatch[] {
  const g = gaz();
  const out: PlaceMatch[] = [];
  // `norm` maps each character on its own and then squeezes spaces, so a phrase's form is its
  // words' forms joined by one space (empty ones left out): each word is normalised once, not
  // once for every phrase it is part of.
  const forms = tokens.map((t) => norm(t.raw));
  for (let i = 0; i < tokens.length; i++) {
    let found: PlaceMatch | null = null;
    for (let n = Math.min(g.maxWords, tokens.length - i); n >= 1 && !found; n--) {
      const words = tokens.slice(i, i + n);
      const phrase = forms.slice(i, i + n).filter(Boolean).join(' ');
      const ref = g.phrases.get(phrase);
      if (!ref) continue;
      if (n === 1) {
        const raw = words[0].raw;
        if (CAPS_ONLY.has(phrase) && raw !== raw.toUpperCase()) continue;
        if (ref.kind === 'city' && raw[0] !== raw[0].toUpperCase() && phrase.length < 5) continue;
      }
      // A smaller city only as a name of its own: "Ana Kovacs" is a person, not the town.
      if (g.small.has(phrase) && (words.some((t) => t.raw[0] !== t.raw[0].toUpperCase()) || afterName(tokens, i))) continue;
      // A province's name is also often a word or a person's name: only as a capitalised name,
      // and not as part of a longer one ("the Great Lakes", "Nebraska Book Company").
      if (ref.kind === 'province' && (words.some((t) => t.raw[0] !== t.raw[0].toUpperCase()) || partOfLongerName(tokens, i, i + n))) continue;
      let place = ref;
      const prev = tokens[i - 1]?.norm;
      if (ref.kind === 'city' && prev && AREAS.has(prev)) place = { ...ref, area: prev === 'downtown' ? 'central' : prev };
      found = { place, start: i, end: i + n };
    }
    // "Albany, NY", "Ithaca NY": a US state code in capitals after a name.
    const code = tokens[i].raw;
    if (!found && /^[A-Z]{2}$/.test(code) && i > 0 && /^[A-Z]/.test(tokens[i - 1].raw)) {
      const state = g.stateCodes.get(code.toLowerCase());
      if (state) found = { place: state, start: i, end: i + 1 };
    }
    if (found) {
      // "Springfield IL": a city named before its state is that state's city, however small.
      const last = out[out.length - 1];
      if (found.place.kind === 'province' && last?.place.kind === 'city' && last.end >= found.start - 1 && last.place.province !== found.place.key) {
        const here = g.cityInProvince.get(`${last.place.key}|${found.place.key}`);
        if (here) last.place = { ...here, area: last.place.area };
      }
      out.push(found);
      i = found.end - 1;
      continue;
    }
    // "the north end", "west side": a side of an unnamed town.
    if (AREAS.has(tokens[i].norm) && tokens[i + 1]?.norm === 'side') {
      out.push({ place: { kind: 'area', key: tokens[i].norm, area: tokens[i].norm }, start: i, end: i + 2 });
      i += 1;
    }
  }
  return out;
}

function distanceKm(a: PlaceRef, b: PlaceRef): number {
  const rad = Math.PI / 180;
  const dLat = ((b.lat ?? 0) - (a.lat ?? 0)) * rad;
  const dLng = ((b.lng ?? 0) - (a.lng ?? 0)) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos((a.lat ?? 0) * rad) * Math.cos((b.lat ?? 0) * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function regionsOf(p: PlaceRef): Set<string> {
  const out = new Set<string>();
  for (const r of p.regions ?? []) {
    out.add(r);
    for (const parent of REGION_PARENTS[r] ?? []) out.add(parent);
  }
  return out;
}

/** How compatible two places are: 1 the same place or one inside the other, down to 0.2 far apart. */
export function placeCompatibility(a: PlaceRef, b: PlaceRef): number {
  if (a.kind === 'area' || b.kind === 'area') {
    if (a.area && b.area) return a.area === b.area ? 1 : 0.6;
    return 1;
  }
  if (a.kind === 'province' || b.kind === 'province') {
    const [p, other] = a.kind === 'province' ? [a, b] : [b, a];
    if (other.kind === 'province' || other.kind === 'city') {
      if (other.key === p.key || other.province === p.key) return 1;
      // A province is wide: distances from its middle count for less than between two cities.
      const d = distanceKm(p, other);
      if (d <= 150) return 0.75;
      if (d <= 500) return 0.4;
      return p.country === other.country ? 0.3 : 0.2;
    }
  }
  if (a.kind === 'city' && b.kind === 'city') {
    if (a.key === b.key) return a.area && b.area && a.area !== b.area ? 0.6 : 1;
    const d = distanceKm(a, b);
    if (d <= 60) return 1;
    if (d <= 200) return 0.75;
    if (d <= 600) return 0.4;
    return a.country === b.country ? 0.3 : 0.2;
  }
  if (a.kind === 'region' || b.kind === 'region') {
    const [r, other] = a.kind === 'region' ? [a, b] : [b, a];
    if (other.kind === 'region') {
      const ra = regionsOf(r);
      const rb = regionsOf(other);
      if (ra.has(other.key) || rb.has(r.key)) return 1;
      return [...ra].some((x) => rb.has(x) && x !== 'europe' && x !== 'americas' && x !== 'asia' && x !== 'africa') ? 0.7 : 0.2;
    }
    return regionsOf(other).has(r.key) ? 1 : 0.2;
  }
  // country with city or country
  if (a.country && a.country === b.country) return 1;
  const ra = regionsOf(a);
  const rb = regionsOf(b);
  const shared = [...ra].filter((x) => rb.has(x));
  if (shared.some((x) => !['europe', 'americas', 'asia', 'africa', 'eu'].includes(x))) return 0.5;
  return 0.2;
}
