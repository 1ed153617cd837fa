import { isAbusive } from './abuse-check';
import { normalizeDraft, readSignals } from './draft-signals';
import { summarizeIntent } from './intent-summary';
import { readIntent } from '../reading/intent-reader';
import type { IntentPreparer, PreparationAnswer, PreparationVerdict, RejectionReason } from './ports';
import { foldAnswers, nextMissingSlot, recoveryFor } from './recovery-questions';

const reject = (reason: RejectionReason, detail: string): PreparationVerdict => ({ status: 'rejected', reason, detail });

/**
 * The rule-based preparer that serves when no model is configured. It refuses what cannot
 * be admitted, asks for the one fact that keeps a draft from being matchable, and otherwise
 * admits it with a summary. Deterministic: the same draft and answers give the same verdict,
 * which is what lets a client retry safely.
 */
export class LocalIntentPreparer implements IntentPreparer {
  readonly name = 'local';
  readonly inProcess = true;

  async prepare(draft: string, answers: PreparationAnswer[]): Promise<PreparationVerdict> {
    const text = normalizeDraft(draft);
    if (!/[\p{L}\p{N}]/u.test(text)) {
      return reject('empty', 'The draft is empty. Say what you are looking for or what you can offer.');
    }
    const { payload, answered } = foldAnswers(text, answers, readSignals);
    if (isAbusive(payload)) {
      return reject('abusive', 'The draft contains abusive or offensive language, or asks for something no network may carry. Rewrite it without that.');
    }
    // Read once: the signals come from it, and the verdict hands it on to indexing (ports.ts).
    const reading = readIntent(payload);
    const signals = readSignals(payload, reading);
    if (!signals.hasIntent) {
      return reject('no_intent', 'The draft does not say what you are looking for or what you can offer, so it is not an intent.');
    }
    const summary = summarizeIntent(payload);
    const slot = nextMissingSlot(signals, answered);
    if (!slot) return { status: 'ready', payload, summary, reading };
    const { field, feedback } = recoveryFor(slot, signals);
    return { status: 'needs_revision', payload, summary, feedback, recovery: [field], reading };
  }
}
