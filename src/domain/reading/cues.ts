/**
 * The general cue words the intent reader uses to tell what a text seeks from what it gives.
 * They are ordinary function words of request and offer in English (and the commonest ones in
 * German, French, Spanish, Italian and Portuguese), not words of any trade: knowledge about
 * what people trade comes only from the text and the statistics of the intents themselves.
 * Phrases are written as the tokenizer normalises them (lower case, singular, no accents).
 */

/** Phrases after which the sentence says what its author seeks. */
export const SEEK_CUES = [
  'looking for', 'look for', 'looking to', 'looking out for', 'on the lookout for', 'hunting for', 'in the hunt for', 'search for', 'searching for', 'in search of', 'seeking', 'seek',
  'need', 'needed', 'needing', 'in need of', 'want', 'wanted', 'wanting', 'would like', 'would love', 'would be great',
  'hoping to', 'hope to', 'trying to find', 'trying to', 'require', 'required', 'requiring', 'hiring', 'to hire', 'recruiting',
  'raising', 'fundraising', 'request', 'requesting', 'anyone', 'anybody', 'is there', 'are there', 'who can', 'where can',
  'can someone', 'can anyone', 'recommendation', 'recommend', 'any tip', 'any lead', 'interested in finding', 'short of',
  'short on', 'in the market for', 'could use', 'could really use', 'can use', 'could do with', 'would appreciate', 'wish', 'calling for', 'call for', 'open call', 'applications open',
  'application open', 'accepting application', 'invite', 'inviting', 'welcome application',
  // de, fr, es, it, pt
  'suche', 'suchen', 'gesucht', 'brauche', 'brauchen', 'benotige', 'benotigen', 'cherche', 'cherchons', 'recherche', 'besoin',
  'busco', 'buscamos', 'necesito', 'necesitamos', 'cerco', 'cerchiamo', 'procuro', 'procuramos', 'preciso', 'precisamos',
];

/** Phrases after which the sentence says what its author gives. */
export const GIVE_CUES = [
  'offering', 'offer', 'we offer', 'can offer', 'happy to', 'glad to', 'willing to', 'able to', 'i can', 'we can', 'can help',
  'available', 'provide', 'providing', 'for sale', 'for rent', 'for lease', 'for hire', 'to let', 'selling', 'renting out',
  'lending', 'sharing', 'taking on', 'take on', 'open to', 'spare', 'free to', 'giving away', 'we run', 'i run', 'we have',
  'i have', 'we got', 'i got', 'we make', 'i make', 'we build', 'i build', 'specialise in', 'specialize in', 'experienced in',
  'experience in', 'experience with',
  // de, fr, es, it, pt
  'biete', 'bieten', 'verkaufe', 'vermiete', 'verschenke', 'propose', 'proposons', 'offre', 'offrons', 'vend', 'loue',
  'ofrezco', 'ofrecemos', 'vendo', 'alquilo', 'offro', 'offriamo', 'affitto', 'ofereco', 'oferecemos', 'alugo',
];

/**
 * Verbs whose object is the person served (the audience the author wants to meet): "we back
 * founders", "I mentor juniors". The verb is what the author gives; its object is sought.
 */
export const AUDIENCE_VERBS = [
  'back', 'fund', 'invest in', 'mentor', 'coach', 'support', 'serve', 'teach', 'train', 'tutor', 'advise', 'host', 'represent',
  'work with', 'partner with', 'help',
];

/** Words that turn what follows into a refusal. */
export const NEGATORS = ['no', 'not', 'non', 'without', 'never', 'dont', 'wont', 'cant', 'cannot', 'isnt', 'arent', 'doesnt', 'nor', 'none', 'kein', 'keine', 'nicht', 'pas', 'sin', 'senza', 'sem'];

/** Words that restrict what follows (or precedes) to the only acceptable kind. */
export const ONLY_WORDS = ['only', 'exclusively', 'solely', 'strictly', 'must', 'nur', 'seulement', 'solo', 'apenas'];

/** Words after what a counterpart must have ("X essential", "X mandatory", "X a must"): each of those words must be met. */
export const REQUIRED_AFTER = ['essential', 'mandatory', 'indispensable', 'a must', 'non negotiable', 'unverzichtbar', 'obligatoire', 'imprescindible', 'indispensabile'];

/**
 * Words that carry no object of a trade: English function words, the cue words, and the
 * boilerplate of posting (greetings, "someone", "please"). Compared after normalisation.
 */
export const STOP_WORDS = `
a an the and or but if then else of to in on at by for with from as is are was were be been being am i me my mine we us our ours
you your yours he him his she her it its they them their this that these those there here what which who whom whose when where
why how all any both each few more most other some such no nor not only own same so than too very can will just do does did
doing have has had having would should could may might must shall also into about over under again further once up down out
off s t dont im ive id ill youre theyre let lets per via anyone someone something anything anybody somebody everyone everybody
hi hey hello thanks thank please pls cheers ok okay yes yeah well maybe perhaps really actually currently now soon just still even
ever already lot lots bit little much many one two three four five six seven eight nine ten first second next last
thing things stuff way ways etc eg ie yo ofc tbh btw fyi asap someone somewhere anywhere anyway though although however
looking look seek seeking searching search find finding need needed needing want wanted wanting would like love hope hoping
trying try offering offer offers available happy glad willing able provide providing get getting got make making made go going
come coming take taking give giving keen interested new good great nice cool best better big small ideally kind sort type
able sure usually mostly often always sometimes every around across within without including include based around
require required request anybody ping dm message contact reach drop email mail call text note know let tell show
der die das und oder ein eine ich wir mit fur von zu im auf ist sind le la les et ou un une je nous avec pour de du des el los las y o
yo con por para il lo gli e io noi per di da o os as eu nos com em
`
  .split(/\s+/)
  .filter(Boolean);
