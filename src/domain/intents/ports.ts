export type RecoveryKind = 'single' | 'multi' | 'text';

export interface RecoveryOption {
  label: string;
  description: string;
}

/** One question that would make a draft matchable; `label` is what an answer's `prompt` names. */
export interface RecoveryField {
  id: string;
  label: string;
  kind: RecoveryKind;
  options: RecoveryOption[];
}

/** An answer to a recovery field of an earlier preparation (a multi answer may be a list). */
export interface PreparationAnswer {
  prompt: string;
  answer: string | string[];
}

/** Why a draft cannot be admitted at all (422 intent_rejected). */
export type RejectionReason = 'empty' | 'abusive' | 'no_intent';

export type PreparationVerdict =
  | { status: 'ready'; payload: string; summary: string }
  | { status: 'needs_revision'; payload: string; summary: string; feedback: string; recovery: RecoveryField[] }
  | { status: 'rejected'; reason: RejectionReason; detail: string };

/**
 * Reviews an intent draft: admits it (ready), asks for the missing fact (needs_revision), or
 * refuses it. Answers from earlier rounds are folded into the returned payload, so a client
 * that sends them again gets a text that carries them. Provider failures throw ProviderError.
 */
export interface IntentPreparer {
  readonly name: string;
  prepare(draft: string, answers: PreparationAnswer[]): Promise<PreparationVerdict>;
}
