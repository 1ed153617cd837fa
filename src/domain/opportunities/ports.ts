import type { OpportunityCard } from '../../entities/opportunity.entity';
import type { Facets } from '../matching/facets.rules';

export interface CardSide {
  name: string;
  intentText: string;
  facets: Facets;
}

export interface CardInput {
  /** Seat A: the opener's intent (or the introducer's first). */
  a: CardSide;
  b: CardSide;
  introducer: { name: string; context: string } | null;
  networkTitle: string | null;
}

/**
 * Writes an opportunity's card: for each seat a headline and a text saying why these two
 * should meet, from the two intents and the match. Rule-based by default; with a provider the
 * model writes the text over the same facts, and any failure keeps the rule-based card.
 */
export interface CardWriter {
  readonly name: 'local' | 'provider';
  write(input: CardInput): Promise<OpportunityCard>;
}
