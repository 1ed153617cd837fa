/**
 * What the local preparer reads in a draft: whether it states a need or an offer at all, how
 * specific its object is, whether it names a counterpart, and whether a place or a time is
 * given where the kind of request makes them matter. Plain lexicons and patterns: cheap,
 * deterministic and explainable, which is what a default without a model should be.
 */

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Function words and fillers that say nothing about what is wanted or offered. */
const STOPWORDS = words(`
  a an the and or but nor so yet if then than that this these those there here it its it's itself
  i me my mine myself we us our ours ourselves you your yours yourself he him his she her hers they them their
  am is are was were be been being have has had having do does did doing will would shall should can could may might must
  to of in on at by for with without from into onto over under about above below between through during before after
  up down out off again further once just only also too very really quite rather some any all both each few more most
  other such no not own same as what which who whom whose when where why how while because until
  im i'm i've i'd i'll we're we've we'd we'll you're you've you'd it'd let's that's there's here's what's
  hey hi hello hiya thanks thank please pls cheers folks everyone everybody all guys y'all
  ok okay yes yeah well maybe perhaps like etc ofc lol
  one two three four five six seven eight nine ten
  something anything everything nothing somebody someone anyone anybody people person persons others
  thing things stuff lot lots bit kind sort type way ways
  get got getting make made making go going goes went come coming take taking put give giving
  know knows think want wants wanted need needs needed needing looking look looks seeking seek searching search find finding
  would love like hope hoping happy glad keen eager open interested interest
  new good great nice cool awesome amazing interesting best better big small little
`);

/**
 * Words that name no object on their own: a draft made only of these ("looking for help with
 * stuff", "want to connect with interesting people") cannot be matched on.
 */
const GENERIC = words(`
  help helping support assistance advice input feedback ideas idea opportunity opportunities
  connect connecting connection connections network networking meet meeting chat chatting talk talking
  collaborate collaboration collaborating collaborator collaborators partner partners partnership
  project projects work working job jobs something somewhere sometime soon
  introduction introductions intro intros contact contacts friends friend community
  life world business businesses company stuff things
`);

const SEEK_RE =
  /\b(looking\s+(for|to)|look(ing)?\s+out\s+for|seek(s|ing)?|search(ing)?\s+for|in\s+search\s+of|need(s|ed|ing)?|want(s|ed|ing)?|would\s+(love|like)|we'?d\s+(love|like)|i'?d\s+(love|like)|hoping\s+to|trying\s+to\s+find|hiring|recruiting|raising|anyone\s+(selling|have|has|know|knows|here|interested|available|up\s+for|got)|any\s+(lenders|tips|recommendations|leads)|wants?\s+to|require[sd]?|after\s+an?\b|who\s+(can|could|would|wants)|accepting\s+applications|applications?\s+(are\s+)?open|open\s+(call|role|position)s?)\b/i;

const OFFER_RE =
  /\b(offer(s|ing)?|available|avail|happy\s+to|glad\s+to|i\s+can|we\s+can|can\s+help|for\s+(hire|rent|sale)|selling|sublet(ting)?|renting\s+out|booking|taking\s+on|commissions?\s+open|we\s+(back|sign|fund|invest|build|make|let|mix|offer)|i\s+(mix|write|draw|make|build|ship|mentor|coach|teach|design|step\s+in|invest|produce|play|teach|translate|edit)|invest(s|ing)?\s+in|mentor(ing)?|coach(ing)?|provid(e|es|ing)|shar(e|ing)|donat(e|ing)|lend(ing)?|volunteer(ing)?|spare|sits?\s+idle|free\s+(from|to|for)|open\s+to|accepting|for\s+anyone)\b/i;

/**
 * How listings read: a course, class or meetup on offer, a trade's service area and call-outs,
 * a giveaway, a call to sign up. People post offers this way without an "offering" verb
 * ("Guitar lessons in Chicago, first lesson free"; "24-hour locksmith in Cork"), and nothing
 * that merely states a fact does.
 */
const LISTING_RE =
  /\b(courses?|class(es)?|lessons?|workshops?|bootcamps?|masterclass(es)?|tutoring|training|meetups?|hosting|tournaments?|retreats?|giving\s+away|give\s+away|free\s+to\s+(a\s+)?good\s+home|book\s+(now|a|your)|sign\s+up|enrol(l)?(ing|ment)?|register\s+(now|here|at)|covering|serving|call-?outs?|appointments?|emergency|lockouts?|repairs?|installations?|deliver(y|ies)|quotes?|commissions?|24\/7|\d+-hours?)\b/i;

/** Counterpart roles: a draft naming one says who it wants to meet or who it is. */
const ROLES = words(`
  investor investors angel angels vc vcs fund funds backer backers lp lps
  founder founders cofounder cofounders co-founder co-founders entrepreneur entrepreneurs ceo cto coo cfo cmo cpo vp
  engineer engineers developer developers dev devs programmer programmers coder coders architect architects
  designer designers artist artists illustrator illustrators animator animators photographer photographers videographer videographers
  writer writers copywriter copywriters editor editors translator translators journalist journalists
  composer composers musician musicians producer producers drummer drummers guitarist guitarists bassist bassists
  singer singers songwriter songwriters vocalist vocalists dj djs band bands label labels venue venues player players
  publisher publishers studio studios agency agencies consultant consultants contractor contractors freelancer freelancers
  recruiter recruiters manager managers lead leads director directors head executive executives
  analyst analysts scientist scientists researcher researchers student students phd postdoc professor professors academic academics
  linguist linguists annotator annotators reviewer reviewers speaker speakers maintainer maintainers contributor contributors
  mentor mentors mentee mentees coach coaches advisor advisors adviser advisers tutor tutors teacher teachers
  tester testers playtester playtesters qa volunteer volunteers organiser organizer organisers organizers
  roommate roommates flatmate flatmates housemate housemates tenant tenants landlord landlords
  sitter sitters walker walkers nanny nannies babysitter babysitters family families parent parents
  bank banks lender lenders customer customers client clients buyer buyers seller sellers user users
  partner partners sponsor sponsors supplier suppliers vendor vendors reseller resellers distributor distributors
  lawyer lawyers accountant accountants marketer marketers salesperson ae aes sdr sdrs csm csms
  mlro dpo officer officers specialist specialists expert experts technician technicians operator operators
  nurse nurses doctor doctors therapist therapists trainer trainers instructor instructors
  team teams group groups lab labs company companies startup startups
`);

/** Agent-noun endings catch roles the lexicon lacks; the exceptions are common non-roles. */
const ROLE_SUFFIX_RE = /^[a-z]{3,}(er|ers|or|ors|ist|ists|ian|ians)$/;
const NOT_ROLES = words(`
  other others another either neither whether weather together however never ever over under after
  water summer winter number numbers order orders paper papers letter letters matter power center centre
  corner river member members chapter character characters quarter border minor major poster posters
  computer computers server servers filter filters folder folders error errors color colors colour colours
  floor door doors factor factors sector sectors floor monitor monitors mixer mixers sticker stickers
  better bigger smaller faster slower cheaper higher lower larger longer shorter earlier later rather
  list lists history mist twist christian dolor
`);

const MEET_RE = /\b(meet|meeting|connect|connecting|network|networking|get\s+to\s+know|talk\s+(to|with)|chat\s+(to|with)|introduc\w*|collaborat\w*|team\s+up|partner\s+up|hang\s+out|make\s+friends)\b/i;
const GENERIC_COUNTERPART_RE = /\b(people|someone|somebody|anyone|anybody|folks|others|person|persons|new\s+friends|friends|like-minded)\b/i;

/** Requests that happen in person: without a place they cannot be matched. */
const PLACE_BOUND_RE =
  /\b(rooms?|rent(al|ing)?|roommates?|flatmates?|housemates?|apartments?|sublet\w*|lease|house-?sit\w*|dogs?|cats?|pets?|pupp(y|ies)|kittens?|sitters?|walkers?|boarding|nann(y|ies)|nanny-share|babysit\w*|childcare|daycare|tennis|soccer|football|pickleball|basketball|volleyball|badminton|squash|climbing|bouldering|hiking|running\s+(buddy|partner|group)|gym|yoga|volunteer\w*|garden\w*|bands?|drummer|bassist|bass\s+player|rehears\w*|jam\s+session|venues?|residenc(y|ies)|carpool|moving\s+help|movers?|furniture|pick-?up|in[\s-]person|on[\s-]site|office|meetups?|coffee)\b/i;

/** Words that place a request: remote-ness counts as a place. */
const REMOTE_RE = /\b(remote(ly)?|online|virtual(ly)?|anywhere|worldwide|global(ly)?|wfh|zoom|video\s+calls?|async)\b/i;
const PLACE_WORDS_RE =
  /\b(downtown|uptown|midtown|city\s+cent(re|er)|neighbou?rhood|nearby|local(ly)?|east\s+side|west\s+side|north\s+side|south\s+side|suburbs?|countryside)\b/i;

/** Places a draft is likely to name without a preposition (lower-cased). */
const GAZETTEER = words(`
  europe european eu uk us usa america american canada canadian mexico latam africa african asia asian apac emea cee nordics baltics
  germany german france french spain spanish italy italian portugal poland polish czechia czech austria swiss switzerland
  netherlands dutch belgium ireland irish sweden norway denmark finland estonia latvia lithuania lithuanian romania hungary greece
  ukraine turkey israel india indian china japan korea singapore indonesia philippines vietnam thailand australia nz brazil argentina chile colombia
  nigeria kenya uganda ghana egypt morocco
  london manchester leeds bristol edinburgh glasgow dublin paris lyon marseille berlin munich hamburg cologne frankfurt vienna zurich geneva
  amsterdam rotterdam brussels madrid barcelona valencia lisbon porto rome milan turin naples athens warsaw krakow prague budapest bucharest
  vilnius riga tallinn helsinki stockholm oslo copenhagen kyiv istanbul tel aviv
  nyc york brooklyn manhattan queens boston chicago austin houston dallas denver seattle portland sf francisco oakland la angeles
  diego phoenix atlanta miami orlando philadelphia pittsburgh detroit milwaukee minneapolis toronto montreal montréal vancouver
  kampala nairobi lagos accra cairo mumbai bangalore bengaluru delhi tokyo seoul beijing shanghai sydney melbourne manila jakarta
  texas california florida ontario quebec bay area
`);

const MONTHS = 'jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?|dec(ember)?';
const WEEKDAYS = 'mon(day)?s?|tue(s|sday)?s?|wed(nesday)?s?|thu(rs|rsday)?s?|fri(day)?s?|sat(urday)?s?|sun(day)?s?|weekdays?|weekends?';

/** Requests tied to a date: without one they cannot be matched. Read only on needs. */
const TIME_BOUND_RE =
  /\b(event|events|meetups?|workshops?|conference|hackathon|party|wedding|trip|travel(l?ing)?|visit(ing)?|sublet\w*|short-term|temporary|boarding|house-?sit\w*|pet-?sit\w*|babysit\w*|moving|deadline|speaker|talk|one-off)\b/i;

const TIME_RE = new RegExp(
  [
    `\\b(${MONTHS})\\b`,
    `\\b(${WEEKDAYS})\\b`,
    String.raw`\b(today|tonight|tomorrow|asap|soon|now|immediately|urgent(ly)?|right\s+away)\b`,
    String.raw`\b(this|next|coming|last)\s+(week|month|year|quarter|season|spring|summer|fall|autumn|winter|weekend)\b`,
    String.raw`\b(spring|summer|fall|autumn|winter|christmas|thanksgiving|easter|new\s+year|holidays?)\b`,
    String.raw`\bq[1-4]\b`,
    String.raw`\b20\d\d\b`,
    String.raw`\b\d+\s*(days?|weeks?|months?|years?|hours?|h|min)\b`,
    String.raw`\b(mornings?|evenings?|afternoons?|nights?|daily|weekly|monthly|fortnightly|every)\b`,
    String.raw`\b(ongoing|flex[a-z]*|anytime|whenever|permanent|long-term|full-time|part-time|recurring)\b`,
    String.raw`\b(starting|from|until|till|by)\s+(mid-?|early\s+|late\s+|end\s+of\s+)?\w+`,
    String.raw`\b\d{1,2}[/.]\d{1,2}([/.]\d{2,4})?\b`,
  ].join('|'),
  'i',
);

/** Money and terms: a draft quoting them is about an exchange, so it is an intent. */
const COMMERCE_RE = /[$€£¥]\s?\d|\d\s?(k|m)?\s?(usd|eur|gbp|chf|pln)\b|\b(per\s+(hour|song|track|month|day|week)|\/\s?(hr|hour|mo|month|track|song)|budget|fee|rate|rates|salary|paid|unpaid|rev\s?share|equity|tickets?|cheques?|checks?|price|pricing|licen[cs]e)\b/i;

/** A seeking question ("Anyone selling...?", "Who can ...?"). */
const ASKING_RE = /\b(anyone|anybody|who|where|any|does\s+anyone|can\s+someone)\b[^?]*\?/i;

export interface DraftSignals {
  seeks: boolean;
  offers: boolean;
  /** States a need or an offer at all. */
  hasIntent: boolean;
  /** Distinct words that name the object: neither function words nor generic ones. */
  specificTerms: string[];
  roles: string[];
  /** About meeting people, but with no kind of person named. */
  counterpartMissing: boolean;
  placeBound: boolean;
  hasPlace: boolean;
  timeBound: boolean;
  hasTime: boolean;
}

export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’+#-]*/gu) ?? []).map((t) => t.replace(/[’]/g, "'").replace(/[-']+$/, ''));
}

function isRole(t: string): boolean {
  if (ROLES.has(t)) return true;
  return ROLE_SUFFIX_RE.test(t) && !NOT_ROLES.has(t) && !STOPWORDS.has(t) && !GENERIC.has(t);
}

/** A capitalised word after a place preposition, or two capitalised words mid-sentence. */
function namesAPlace(text: string, toks: string[]): boolean {
  if (REMOTE_RE.test(text) || PLACE_WORDS_RE.test(text)) return true;
  if (toks.some((t) => GAZETTEER.has(t))) return true;
  const prep = /\b(in|near|around|at|from|based\s+in|across|within|to|of)\s+(the\s+)?([A-Z][\p{L}'.-]+)/gu;
  for (const m of text.matchAll(prep)) {
    if (!new RegExp(`^(${MONTHS}|${WEEKDAYS}|I)$`, 'i').test(m[3])) return true;
  }
  return /[^.!?\n]\s+[A-Z][\p{Ll}]+\s+[A-Z][\p{Ll}]+/u.test(text);
}

export function readSignals(text: string): DraftSignals {
  const toks = tokens(text);
  const seeks = SEEK_RE.test(text) || ASKING_RE.test(text);
  // A listing that asks for nothing is an offer.
  const offers = OFFER_RE.test(text) || (!seeks && LISTING_RE.test(text));
  const roles = [...new Set(toks.filter(isRole))];
  const specificTerms = [
    ...new Set(toks.filter((t) => t.length > 1 && !/^\d+$/.test(t) && !STOPWORDS.has(t) && !GENERIC.has(t))),
  ];
  const placeholder = /\blorem\s+ipsum\b/i.test(text);
  // Only lexicon roles count here: the suffix rule would take "my brother" for an offer.
  const hasIntent = !placeholder && (seeks || offers || toks.some((t) => ROLES.has(t)) || COMMERCE_RE.test(text));
  const counterpartMissing = MEET_RE.test(text) && roles.length === 0 && (GENERIC_COUNTERPART_RE.test(text) || specificTerms.length < 2);
  return {
    seeks,
    offers,
    hasIntent,
    specificTerms,
    roles,
    counterpartMissing,
    placeBound: PLACE_BOUND_RE.test(text),
    hasPlace: namesAPlace(text, toks),
    timeBound: TIME_BOUND_RE.test(text),
    hasTime: TIME_RE.test(text),
  };
}

/**
 * The canonical form of a draft: what preparation reviews, what a receipt is bound to and
 * what create stores. Line breaks survive (bullet lists read better with them).
 */
export function normalizeDraft(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** True when a sentence itself says what is wanted or offered. */
export function statesIntent(sentence: string): boolean {
  return SEEK_RE.test(sentence) || OFFER_RE.test(sentence);
}
