import type { Dim } from '../matching/attributes.rules';
import { clip, dimValueWords, DIM_NAMES, listWords, moneyWords, placesWords } from '../matching/facet-phrases';
import type { Facets } from '../matching/facets.rules';
import type { RequirementCheck } from './requirements.rules';

/**
 * The hosted negotiator's wording. Messages are plain text for people and agents alike; a
 * question is its own sentence ending in "?" (optionally after "Question:") and an answer is a
 * line starting with "Answer:", so another negotiator can tell them apart.
 */

const dimOf = (key: string): Dim | null => (key.startsWith('dim:') ? (key.slice(4) as Dim) : null);

function refusalWords(refusal: string): string {
  if (!refusal.includes(':')) return refusal;
  const [dim, v] = refusal.split(':') as [Dim, string];
  return dimValueWords(dim, [v]);
}

/** Words quoted from an intent as evidence. */
function quotedWords(words: string[], joiner: 'and' | 'or' = 'and'): string {
  return listWords(words.map((w) => `"${w}"`), joiner);
}

/** What a requirement asks for, as a phrase ("the seed stage", "Warsaw", "funding"). */
export function requirementWords(c: RequirementCheck): string {
  const d = c.dim ?? dimOf(c.key);
  if (c.key === 'need') {
    if (c.mine.words?.length) return quotedWords(c.mine.words.slice(0, 3));
    // Neither intent says what it seeks: there is no word to quote.
    return 'what either of you is looking for';
  }
  if (c.key === 'place') return c.mine.places?.length ? placesWords(c.mine.places, 'or') : `somewhere near (${quotedWords(c.mine.words ?? [])})`;
  if (c.key === 'money') return listWords((c.mine.money ?? []).map(moneyWords), 'or');
  if (c.key.startsWith('refusal:')) return `no ${refusalWords(c.mine.refusal ?? c.key.slice(8))}`;
  if (c.key === 'only') return `only ${quotedWords((c.mine.words ?? []).slice(0, 3), 'or')}`;
  if (c.key === 'amount') return quotedWords((c.mine.words ?? []).slice(0, 3), 'or');
  if (c.key === 'required' || c.key === 'level') return quotedWords((c.mine.words ?? []).slice(0, 3));
  if (c.key === 'unavailable') return c.by === 'mine' ? `${quotedWords(c.mine.words ?? [])} as unavailable` : quotedWords(c.mine.words ?? []);
  if (d) return dimPhrase(d, c.mine.values ?? []);
  return c.key;
}

/** A dimension's values as a phrase ("the seed stage", "paid work", "rock music"). */
export function dimPhrase(d: Dim, values: string[]): string {
  const v = dimValueWords(d, values);
  switch (d) {
    case 'stage':
      return `the ${v} stage`;
    case 'employment':
    case 'pay':
      return `${v} work`;
    default:
      return v;
  }
}

function theirWords(c: RequirementCheck): string {
  const t = c.theirs;
  if (!t) return 'nothing about it';
  if (c.key === 'unavailable' && c.by === 'theirs') return `${quotedWords(t.words ?? [])} as unavailable`;
  const d = c.dim ?? dimOf(c.key);
  if (t.places?.length) return placesWords(t.places, 'and');
  if (t.money?.length) return listWords(t.money.map(moneyWords));
  if (t.words?.length) return quotedWords(t.words.slice(0, 3));
  if (d && t.values?.length) return dimValueWords(d, t.values);
  return 'something else';
}

/** One focused question to the other seat about an unknown requirement. */
export function questionFor(c: RequirementCheck, me: string, offerOnly: boolean): string {
  const d = c.dim ?? dimOf(c.key);
  const v = d ? dimValueWords(d, c.mine.values ?? []) : '';
  if (c.key === 'need') {
    const what = c.mine.words?.length ? quotedWords(c.mine.words.slice(0, 3), 'or') : '';
    if (!what) return `What are you looking for? ${me}'s intent does not say what it seeks either.`;
    return offerOnly ? `Are you looking for ${what}?` : `Do you offer ${what}?`;
  }
  if (c.key === 'place') return c.mine.places?.length ? `Where are you based? ${me} is in ${placesWords(c.mine.places)}.` : `Where are you based? ${me}'s intent asks for someone near.`;
  if (c.key === 'money') return `What is your rate or budget? ${me}'s intent states ${requirementWords(c)}.`;
  if (c.key === 'amount') return `How much or how many can you do? ${me}'s intent states ${quotedWords((c.mine.words ?? []).slice(0, 3))}.`;
  if (c.key === 'required') return `Do you have ${quotedWords((c.mine.words ?? []).slice(0, 3))}? ${me}'s intent states it as essential.`;
  if (c.key === 'only') return `Is this about ${quotedWords((c.mine.words ?? []).slice(0, 3), 'or')}? ${me} takes only that.`;
  if (c.key.startsWith('refusal:')) {
    const r = c.mine.refusal ?? '';
    if (r.startsWith('pet:')) return `Do you have pets? ${me}'s intent rules them out.`;
    return `Does this involve ${refusalWords(r)}? ${me}'s intent rules it out.`;
  }
  switch (d) {
    case 'stage':
      return `Do you work with companies at the ${v} stage?`;
    case 'employment':
      return `Does a ${v} arrangement work for you?`;
    case 'mode':
      return `Does ${v} work for you?`;
    case 'pay':
      return `Is ${v} work acceptable to you?`;
    case 'daytype':
      return `Are you available on ${v}?`;
    case 'daypart':
      return `Are you available in the ${v}?`;
    case 'month':
      return `Are you available in ${v}?`;
    case 'lang':
      return `Do you speak ${v}?`;
    case 'pet':
      return `Are ${v} OK with you?`;
    default:
      return `Does ${requirementWords(c)} work for you?`;
  }
}

/** Why the negotiator declines, in one sentence. */
export function declineReason(c: RequirementCheck, me: string, them: string): string {
  const mine = requirementWords(c);
  switch (c.reason) {
    case 'same-side':
      // Their own words for what both seek (as written on their side), else ours.
      return `${them} is looking for ${theirWords(c.theirs?.words?.length ? c : { ...c, theirs: c.mine })} too, so neither of you offers what the other needs.`;
    case 'variant':
      return `${me} needs ${mine}; ${them} offers ${theirWords(c)}, a different kind.`;
    case 'unrelated':
      return `${them} does not offer ${mine}, which is what ${me} needs.`;
    case 'ticket':
      return `The ticket sizes do not fit the round: ${me} states ${listWords((c.mine.money ?? []).map(moneyWords))}, ${them} ${theirWords(c)}.`;
    case 'far':
      return c.by === 'theirs'
        ? `${them} works only in ${theirWords(c)}, and ${me} is in ${placesWords(c.mine.places ?? [])}.`
        : `${me} needs ${mine}; ${them} is in ${theirWords(c)}, too far apart.`;
    case 'refused':
      return c.by === 'theirs'
        ? `${them}'s intent rules out ${c.mine.words?.length ? quotedWords(c.mine.words) : listWords((c.mine.values ?? []).map((x) => (c.dim ? dimValueWords(c.dim, [x]) : x)))}, which ${me}'s intent states.`
        : `${me}'s intent rules out ${refusalWords(c.mine.refusal ?? '')}, and ${them} states ${theirWords(c)}.`;
    case 'answered no':
      return `${mine} does not hold: the answer was no.`;
    default:
      return c.by === 'theirs'
        ? `${them} needs ${theirWords(c)} where ${me} states ${listWords((c.mine.values ?? []).map((x) => (c.dim ? dimValueWords(c.dim, [x]) : x)))}.`
        : `${me} needs ${mine}; ${them} states ${theirWords(c)}.`;
  }
}

/** A need check with nothing to quote: neither intent says what it seeks. */
const unnamedNeed = (c: RequirementCheck) => c.key === 'need' && !c.mine.words?.length;

/** The owner's question when a requirement is close but not exact. */
export function closeQuestion(c: RequirementCheck, them: string): string {
  return `${them} is close on one point: your intent says ${requirementWords(c)}, and ${them} states ${theirWords(c)}. Should I go ahead? Reply yes to continue or no to decline.`;
}

/** The owner's question when the other seat did not answer about a requirement. */
export function unansweredQuestion(c: RequirementCheck, them: string): string {
  if (unnamedNeed(c)) return `${them} did not say what they are looking for (I asked), and your intent does not say either. Should I go ahead without it? Reply yes to continue or no to decline.`;
  return `${them} did not say whether ${requirementWords(c)} works (I asked). Should I go ahead without it? Reply yes to continue or no to decline.`;
}

/**
 * The owner's question before the opening proposal when a requirement is unknown: a proposal is
 * the only way to open, and the other seat could accept it without answering.
 */
export function openingQuestion(c: RequirementCheck, them: string): string {
  if (unnamedNeed(c)) return `Neither your intent nor ${them}'s says what it is looking for, so I cannot check that one offers what the other needs, and I can only open with a proposal, which they could accept without answering. Should I propose anyway (and ask them)? Reply yes to propose, or no to decline.`;
  return `${them}'s intent does not say whether ${requirementWords(c)} works for them, and I can only open with a proposal, which they could accept without answering. Should I propose anyway (and ask them)? Reply yes to propose, or no to decline.`;
}

const quoted = (terms: string[]) => `"${clip(terms.join(' '), 600)}"`;

/** The owner's question when the other seat's proposal states terms the rules cannot check. */
export function termsQuestion(terms: string[], them: string): string {
  return `${them}'s negotiator proposes terms I cannot check against your intent: ${quoted(terms)} Do you agree to them? Reply yes to accept, no to refuse, or say what you would agree to.`;
}

/** The counter that passes on the owner's refusal of the other seat's terms. */
export function termsRefused(terms: string[], me: string, answer: string): string {
  return `Not agreed: ${quoted(terms)}\nAnswer (from ${me}): ${clip(answer, 1000)}`;
}

export function termsDeclined(terms: string[], me: string): string {
  return `${me} does not agree to ${quoted(terms)}, and the proposal still states it.`;
}

/** When the other seat sent back one of the negotiator's own messages: no question mark, so it asks nothing the rules would answer. */
export function echoCounter(them: string): string {
  return `${them}'s last message repeats one of mine word for word, so I cannot take it as an answer. Please state your own terms, or accept or decline.`;
}

export function echoDecline(them: string): string {
  return `${them}'s negotiator repeats my messages instead of answering, so nothing it says can be checked.`;
}

export function relayQuestion(question: string, them: string): string {
  return `${them}'s negotiator asks: "${clip(question, 400)}" Your intent does not say. What should I answer?`;
}

/** An answer from the owner's intent to a question of the other seat, or null when the intent does not say. */
export function answerFromIntent(key: string, f: Facets, me: string): string | null {
  const d = dimOf(key);
  if (key === 'need') {
    // The words the general reader put on each side, as the owner wrote them.
    const offers = clip(f.reading.text.give, 300);
    const seeks = clip(f.reading.text.seek, 300);
    if (!offers && !seeks) return null;
    return [offers && `${me} offers ${offers}`, seeks && `${me} is looking for ${seeks}`].filter(Boolean).join('; ') + '.';
  }
  if (key === 'place') {
    if (f.places.length) return `${me} is based in ${placesWords(f.places)}.`;
    if ((f.attrs.mode ?? []).some((m) => m === 'remote' || m === 'virtual')) return `${me} works remotely, so place does not matter.`;
    return null;
  }
  if (key === 'money') return f.money.length ? `${me}'s intent states ${listWords(f.money.map(moneyWords))}.` : null;
  if (d) {
    const vals = f.attrs[d];
    const refused = f.excludes.filter((e) => e.startsWith(`${d}:`)).map((e) => e.slice(d.length + 1));
    if (vals?.length) return `${capitalise(DIM_NAMES[d])}: ${dimValueWords(d, vals)}.`;
    if (refused.length) return `${capitalise(DIM_NAMES[d])}: not ${dimValueWords(d, refused)}.`;
    return null;
  }
  return null;
}

const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1);

export function checkedList(checks: RequirementCheck[]): string {
  const held = checks.filter((c) => c.status === 'holds').map(requirementWords).filter(Boolean);
  return held.length ? listWords(held) : 'what it states';
}

export function offerSentence(me: string, f: Facets): string {
  // The owner's own words, as the general reader split them (cut to a phrase each).
  const seeks = clip(f.reading.text.seek, 160);
  const offers = clip(f.reading.text.give, 160);
  if (seeks && offers) return `${me} is looking for: ${seeks}. ${me} offers: ${offers}.`;
  if (seeks) return `${me} is looking for: ${seeks}.`;
  if (offers) return `${me} offers: ${offers}.`;
  return `${me} would like to be introduced.`;
}
