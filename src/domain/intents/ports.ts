import type { WriteCte } from '../../db/write-cte';
import type { IntentReading } from '../reading/intent-reader';

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

/**
 * `reading`: the general reader's reading of `payload`, when the preparer made one (the local
 * preparer reads every draft): indexing the new intent takes it instead of reading the same text
 * again. A provider's preparer gives none.
 */
export type PreparationVerdict =
  | { status: 'ready'; payload: string; summary: string; reading?: IntentReading }
  | { status: 'needs_revision'; payload: string; summary: string; feedback: string; recovery: RecoveryField[]; reading?: IntentReading }
  | { status: 'rejected'; reason: RejectionReason; detail: string };

/**
 * Reviews an intent draft: admits it (ready), asks for the missing fact (needs_revision), or
 * refuses it. Answers from earlier rounds are folded into the returned payload, so a client
 * that sends them again gets a text that carries them. Provider failures throw ProviderError.
 */
export interface IntentPreparer {
  readonly name: string;
  /**
   * True when preparing calls nothing outside the process (no provider): then it may run before
   * the caller's membership is known, which the write checks itself. A preparer that calls a
   * provider is called only for a caller already found a member of the networks.
   */
  readonly inProcess: boolean;
  prepare(draft: string, answers: PreparationAnswer[]): Promise<PreparationVerdict>;
}

/**
 * Makes a new intent searchable in three steps around its one transaction (docs/adr/0107):
 * `prepare` runs before it and may call an embedding provider; the entry it returns adds, inside
 * the transaction, the row the index is derived from, so the intent and that row commit together;
 * after commit it puts the intent in the index (or asks for a retry when the embedding failed).
 */
export interface NewIntentIndexing {
  /** `reading`: the general reader's reading of `text` when the caller already has it (it is not read again). */
  prepare(text: string, reading?: IntentReading): Promise<PreparedIndexEntry>;
}

export interface PreparedIndexEntry {
  /** The index row's insert, a write of the statement that creates the intent. */
  write(intentId: string): WriteCte;
  /** After commit; the intent is new, so it is active and shared into exactly these networks. */
  publish(intent: { id: string; userId: string; networkIds: string[] }): Promise<void>;
}
