import { readIntent } from '../reading/intent-reader';
import { isAbusive } from './abuse-check';
import { normalizeDraft, readSignals } from './draft-signals';
import { summarizeIntent } from './intent-summary';
import type { IntentPreparer, PreparationAnswer, PreparationVerdict, RejectionReason } from './ports';
import { foldAnswers, nextMissingSlot, recoveryFor } from './recovery-questions';

/**
 * What the general reader sees as a need or an offer: a request or offer cue in any of the
 * languages it knows, a price ("480€", "£42/h"), or a listing line that names something and
 * then its terms after a colon. A plain statement of fact has none of these.
 */
function statesAnExchange(text: string): boolean {
  if (/\blorem\s+ipsum\b/i.test(text)) return false;
  const reading = readIntent(text);
  if (reading.cued.seek || reading.cued.give) return true;
  if (reading.constraints.money.length || /\d\s?[$€£¥]|[$€£¥]\s?\d/.test(text)) return true;
  if (/^[^.!?\n]{3,80}:\s*\S/.test(text.trim())) return true;
  // A listing names what is on offer without a verb ("Charity audits for small charities, fixed
  // fees"); a plain statement tells of the past or of someone else ("My brother lives in Berlin").
  // Its words as written: a term of when or how ("weekdays only") counts, though only compared as a constraint.
  const given = new Set(reading.text.give.toLowerCase().split(/\s+/).filter(Boolean));
  return given.size >= 2 && !plainStatement(text);
}

const PAST = new Set(['had', 'was', 'were', 'went', 'did', 'saw', 'met', 'got', 'made', 'came']);
const THIRD_PERSON_STATE = new Set(['is', 'are', 'lives', 'live', 'seems', 'seem', 'looks', 'feels', 'feel']);
const FIRST_PERSON = new Set(['i', 'we', "i'm", "we're"]);

function plainStatement(text: string): boolean {
  const words = (text.trim().split(/[.!?\n]/)[0] ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 6);
  if (words.some((w) => PAST.has(w))) return true;
  return !FIRST_PERSON.has(words[0] ?? '') && words.slice(1).some((w) => THIRD_PERSON_STATE.has(w));
}

const reject = (reason: RejectionReason, detail: string): PreparationVerdict => ({ status: 'rejected', reason, detail });

/**
 * The rule-based preparer that serves when no model is configured. It refuses what cannot
 * be admitted, asks for the one fact that keeps a draft from being matchable, and otherwise
 * admits it with a summary. Deterministic: the same draft and answers give the same verdict,
 * which is what lets a client retry safely.
 */
export class LocalIntentPreparer implements IntentPreparer {
  readonly name = 'local';

  async prepare(draft: string, answers: PreparationAnswer[]): Promise<PreparationVerdict> {
    const text = normalizeDraft(draft);
    if (!/[\p{L}\p{N}]/u.test(text)) {
      return reject('empty', 'The draft is empty. Say what you are looking for or what you can offer.');
    }
    const { payload, answered } = foldAnswers(text, answers, readSignals);
    if (isAbusive(payload)) {
      return reject('abusive', 'The draft contains abusive or offensive language, or asks for something no network may carry. Rewrite it without that.');
    }
    const signals = readSignals(payload);
    if (!signals.hasIntent && !statesAnExchange(payload)) {
      return reject('no_intent', 'The draft does not say what you are looking for or what you can offer, so it is not an intent.');
    }
    const summary = summarizeIntent(payload);
    const slot = nextMissingSlot(signals, answered);
    if (!slot) return { status: 'ready', payload, summary };
    const { field, feedback } = recoveryFor(slot, signals, payload);
    return { status: 'needs_revision', payload, summary, feedback, recovery: [field] };
  }
}
