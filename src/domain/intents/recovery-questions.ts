import type { DraftSignals } from './draft-signals';
import type { PreparationAnswer, RecoveryField, RecoveryOption } from './ports';

/** The facts a matchable intent needs; when is only read back from earlier answers. */
export type Slot = 'what' | 'who' | 'where' | 'when';

const opt = (label: string, description: string): RecoveryOption => ({ label, description });

const WHAT_SEEKING: RecoveryField = {
  id: 'what',
  label: 'What exactly are you looking for?',
  kind: 'single',
  options: [
    opt('Investors or funding', 'Say the stage and amount in your own words if you can'),
    opt('Someone to hire', 'A role for your team or a freelancer for a project'),
    opt('A job or contract work', 'A role, gig or project for yourself'),
    opt('A cofounder', 'Someone to build a company with'),
    opt('A mentor or advice', 'Someone who has done it before'),
    opt('Customers, users or testers', 'People to use, buy or try what you make'),
    opt('A place to live', 'A room, flat or sublet'),
    opt('Something else', 'Describe it in your answer instead of picking this'),
  ],
};

const WHAT_OFFERING: RecoveryField = {
  id: 'what',
  label: 'What exactly are you offering?',
  kind: 'single',
  options: [
    opt('Investment', 'Say the ticket size and stage in your answer if you can'),
    opt('A job or a paid project', 'A role on your team or work for a freelancer'),
    opt('My skills or services', 'Name the skill in your answer: design, mixing, Rust, tutoring...'),
    opt('Mentorship or advice', 'Time and experience for people starting out'),
    opt('A product or partnership', 'Something other teams can use or integrate'),
    opt('Space, equipment or compute', 'A room, gear, GPUs, a venue'),
    opt('My time as a volunteer', 'Help for a cause or a neighbour'),
    opt('Something else', 'Describe it in your answer instead of picking this'),
  ],
};

const WHO: RecoveryField = {
  id: 'who',
  label: 'Who would you like to meet?',
  kind: 'multi',
  options: [
    opt('Founders', 'People starting or running a company'),
    opt('Investors', 'Angels, funds and other backers'),
    opt('Engineers or developers', 'People who build software or hardware'),
    opt('Designers or artists', 'Visual, sound, product or game design'),
    opt('Researchers or students', 'Academic and applied research'),
    opt('Mentors or advisors', 'Experienced people who can guide you'),
    opt('Hiring managers or recruiters', 'People filling roles'),
    opt('Neighbours nearby', 'People in your area'),
  ],
};

const WHERE: RecoveryField = {
  id: 'where',
  label: 'Where should this happen?',
  kind: 'text',
  options: [
    opt('Remote / anywhere', 'The place does not matter'),
    opt('A city or neighbourhood', 'Type it in your answer, e.g. "Utrecht" or "a district of Graz"'),
  ],
};

/**
 * Every prompt the local preparer asks or once asked, by slot. Questions it no longer asks
 * (when, the city-only where) stay here so that an answer a client still holds for one
 * folds as the same sentence and closes the same slot (docs/adr/0121-preparer-reads-through-the-reader.md).
 */
const PROMPTS: Array<[Slot, string]> = [
  ['what', WHAT_SEEKING.label],
  ['what', WHAT_OFFERING.label],
  ['where', WHERE.label],
  ['where', 'Which city or neighbourhood?'],
  ['who', WHO.label],
  ['when', 'When do you need this?'],
];

const SLOT_OF_LABEL = new Map(PROMPTS.map(([slot, label]) => [label.toLowerCase(), slot]));

/** The slot a prompt (the label of an earlier recovery field) asked about, if it is one of ours. */
export function slotOfPrompt(prompt: string): Slot | null {
  return SLOT_OF_LABEL.get(prompt.trim().toLowerCase()) ?? null;
}

/**
 * The one fact to ask for next; answered slots are never asked again, so a conversation ends.
 * What comes first: without an object nothing can be matched. A draft named only in everyday
 * words is asked who, since every intent here is met by a person. Where is asked only of a draft
 * that says it happens in person and names no place: the draft itself says the place decides.
 */
export function nextMissingSlot(s: DraftSignals, answered: Set<Slot>): Slot | null {
  const missing: Slot[] = [];
  // What and who are one gap, the object: once either is answered it is closed.
  const objectAnswered = answered.has('what') || answered.has('who');
  if (s.facts.length < 2 && !objectAnswered) missing.push('what');
  if (s.vague && !objectAnswered) missing.push('who');
  if (s.inPerson && !s.hasPlace) missing.push('where');
  return missing.find((slot) => !answered.has(slot)) ?? null;
}

export function recoveryFor(slot: Slot, s: DraftSignals): { field: RecoveryField; feedback: string } {
  if (slot === 'where') {
    return { field: WHERE, feedback: 'Say where this happens: a city or neighbourhood, or remote / anywhere if the place does not matter.' };
  }
  if (slot === 'who') {
    return {
      field: WHO,
      feedback: 'Say who you would like to meet: a role, a field or a kind of person. "People" fits everyone, so it cannot be matched on.',
    };
  }
  const offering = s.offers && !s.seeks;
  const field = offering ? WHAT_OFFERING : WHAT_SEEKING;
  const side = offering ? 'offer' : 'need';
  return {
    field,
    feedback: s.objectWord
      ? `Say more about the ${s.objectWord} you ${side}: what kind, for what, and on what terms. A request this short fits almost anything, so it cannot be matched well.`
      : `The draft does not say what you ${offering ? 'offer' : 'are looking for'}, so nobody can be matched to it. Name the thing itself: a skill, a role, a product, a place to live.`,
  };
}

/** How an answer reads once folded into the description. */
function sentenceFor(slot: Slot | null, prompt: string, answer: string, direction: () => DraftSignals): string {
  switch (slot) {
    case 'what': {
      const s = direction();
      return s.offers && !s.seeks ? `Offering: ${answer}.` : `Looking for: ${answer}.`;
    }
    case 'who':
      return `Would like to meet: ${answer}.`;
    case 'where':
      return `Location: ${answer}.`;
    case 'when':
      return `Timing: ${answer}.`;
    default:
      return `${prompt.trim().replace(/[?:.\s]+$/, '')}: ${answer}.`;
  }
}

export function answerText(a: PreparationAnswer): string {
  const raw = Array.isArray(a.answer) ? a.answer.map((x) => x.trim()).filter(Boolean).join(', ') : a.answer;
  return raw.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
}

/**
 * Folds answers into the draft as short sentences. Idempotent: an answer whose sentence or
 * text the draft already carries is not added again, so a client may send back either its
 * original draft or the payload of the previous round together with every answer so far.
 */
export function foldAnswers(
  draft: string,
  answers: PreparationAnswer[],
  signalsOf: (text: string) => DraftSignals,
): { payload: string; answered: Set<Slot> } {
  let payload = draft;
  const answered = new Set<Slot>();
  // Only an answer to "what" reads the draft's direction: most drafts come with no answers, and
  // reading a draft is most of what preparing it costs.
  let direction: DraftSignals | null = null;
  const directionOf = () => (direction ??= signalsOf(draft));
  for (const a of answers) {
    const text = answerText(a);
    if (!text) continue;
    const slot = slotOfPrompt(a.prompt);
    if (slot) answered.add(slot);
    const sentence = sentenceFor(slot, a.prompt, text, directionOf);
    const lower = payload.toLowerCase();
    if (lower.includes(sentence.toLowerCase()) || (text.length >= 3 && lower.includes(text.toLowerCase()))) continue;
    const joiner = payload.includes('\n') ? '\n' : ' ';
    payload = `${/[.!?…)\]"]$/u.test(payload) ? payload : `${payload}.`}${joiner}${sentence}`;
  }
  return { payload, answered };
}
