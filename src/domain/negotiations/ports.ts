import type { OwnerQuestionTopic, TurnMeta } from '../../entities/negotiation.entity';
import type { Facets } from '../matching/facets.rules';
import type { NegotiationAction } from './negotiation.rules';

export interface PolicyTurn {
  turnIndex: number;
  /** Taken by the seat this policy plays. */
  mine: boolean;
  action: NegotiationAction;
  message: string;
  meta: TurnMeta | null;
}

export interface PolicySide {
  name: string;
  intentText: string;
  facets: Facets;
}

/** An answer the owner gave in the agent thread to one of the negotiator's questions. */
export interface OwnerAnswer {
  topic: OwnerQuestionTopic;
  question: string;
  answer: string;
}

/** Everything the hosted negotiator knows when it takes a seat's turn. */
export interface NegotiationContext {
  turnIndex: number;
  maxTurns: number;
  messageLimit: number;
  /** protocol.availableActions for this seat: a decision outside it is never submitted. */
  availableActions: NegotiationAction[];
  turns: PolicyTurn[];
  me: PolicySide;
  them: PolicySide;
  introducer: { name: string; context: string } | null;
  ownerAnswers: OwnerAnswer[];
}

export type NegotiatorDecision =
  /** `note` says why a provider's answer was not used (for the log). */
  | { kind: 'turn'; action: NegotiationAction; message: string; meta: TurnMeta; note?: string }
  /** Only the owner can answer: ask in the agent thread and wait. `topicKey` makes the question idempotent. */
  | { kind: 'ask-owner'; topic: OwnerQuestionTopic; topicKey: string; text: string }
  | { kind: 'wait'; reason: string };

/**
 * Decides a seat's next move. Local rules by default; an OpenAI-compatible model when one is
 * configured, whose answer is checked against the rules and the available actions.
 */
export interface NegotiatorPolicy {
  readonly name: 'local' | 'provider';
  decide(ctx: NegotiationContext): Promise<NegotiatorDecision>;
}
