import { z } from 'zod';
import { named, nullable, timestamp, uuid } from './schema-kit';

const cardFields = {
  opportunityId: uuid(),
  status: z.enum(['negotiating', 'pending', 'accepted', 'rejected', 'expired']),
  peer: z.object({ userId: uuid(), name: z.string(), avatar: z.string() }),
  mainText: z.string(),
  headline: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const OpportunityCard = named('OpportunityCard', z.object(cardFields));
export const Opportunity = named(
  'Opportunity',
  z.object({
    id: uuid(),
    ...cardFields,
    myRole: z.string().meta({ description: 'seeker, provider, peer or introducer' }),
    otherParties: z.array(z.object({ userId: uuid(), name: z.string(), avatar: z.string(), role: z.string() })),
    category: z.string(),
    confidence: z.number(),
    primaryActionLabel: nullable(z.string()),
    network: nullable(z.object({ id: uuid(), title: z.string() })),
  }),
  'An opportunity card with the single-read fields',
);

export const OpportunityChat = named(
  'OpportunityChat',
  z.object({ conversationId: nullable(uuid()).meta({ description: 'Null until both owners approved' }), counterpartUserId: uuid(), opportunity: Opportunity }),
);

const rowFields = {
  id: uuid(),
  opportunityId: uuid(),
  intentId: nullable(uuid()),
  awaitingUserId: nullable(uuid()),
  outcome: nullable(z.enum(['agreed', 'declined', 'closed'])),
  settledAt: nullable(timestamp()),
  turnCount: z.number().int(),
  introducer: nullable(z.object({ userId: uuid(), name: z.string(), context: z.string() })),
  counterparty: nullable(z.object({ userId: uuid(), intentId: uuid(), name: z.string(), avatar: z.string(), statement: z.string() })),
};

export const NegotiationRow = named('NegotiationRow', z.object(rowFields));
export const Negotiation = named(
  'Negotiation',
  z.object({
    ...rowFields,
    turns: nullable(
      z.array(
        z.object({
          turnIndex: z.number().int(),
          seatUserId: uuid(),
          action: z.enum(['propose', 'counter', 'accept', 'decline']),
          message: z.string(),
          createdAt: timestamp(),
        }),
      ),
    ),
    protocol: nullable(
      z.object({
        availableActions: z.array(z.enum(['propose', 'counter', 'accept', 'decline'])),
        blockedReason: nullable(z.enum(['not_your_turn', 'already_settled', 'intent_inactive', 'turn_limit', 'not_a_seat'])),
        guidance: z.string(),
        maxTurns: z.number().int(),
        messageLimit: z.number().int(),
      }),
    ),
  }),
  'A negotiation with its turns and the reader\'s protocol',
);
