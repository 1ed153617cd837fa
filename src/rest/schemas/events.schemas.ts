import { z } from 'zod';
import { Message } from './conversations.schemas';
import { named, nullable, timestamp, uuid } from './schema-kit';

/**
 * core-api.md, Events: the frames of GET /api/events and GET /api/events/log. The GraphQL
 * `EventFramePayload` union (src/graphql/events/event-frame.types.ts) has one member per frame.
 */
export const ConnectedFrame = named(
  'ConnectedFrame',
  z.object({ type: z.literal('connected'), at: timestamp() }),
  "The handshake, first on every connection. Its SSE id (not in the JSON) is the eventId the stream starts after: resuming with it as Last-Event-ID misses nothing sent since connecting, even when the connection dropped before any frame. A consumer's stream gives none (the server keeps its offset)",
);

const logged = { eventId: z.string().meta({ description: 'The SSE id; increases on every frame for a user' }), at: timestamp() };

export const MessageFrame = named(
  'MessageFrame',
  z.object({ ...logged, type: z.literal('message'), conversationId: uuid(), message: Message }),
  'A chat message (no title)',
);

const notification = <T extends string, D extends z.ZodRawShape>(id: string, type: T, data: D, description: string) =>
  named(id, z.object({ ...logged, type: z.literal(type), id: uuid(), title: z.string(), body: z.string(), data: z.object(data) }), description);

export const NegotiationTurnFrame = notification(
  'NegotiationTurnFrame',
  'negotiation.turn',
  { opportunityId: uuid(), intentId: uuid(), turnIndex: z.number().int() },
  'A turn was submitted; the reader\'s seat is awaited',
);
export const NegotiationSettledFrame = notification(
  'NegotiationSettledFrame',
  'negotiation.settled',
  { opportunityId: uuid(), intentId: uuid(), outcome: z.enum(['agreed', 'declined', 'closed']) },
  'A negotiation settled',
);
export const NegotiationChangedFrame = notification(
  'NegotiationChangedFrame',
  'negotiation.changed',
  { intentId: uuid(), opportunityId: uuid().optional() },
  'A negotiation changed other than by a turn',
);
export const PrincipalInputFrame = notification(
  'PrincipalInputFrame',
  'principal.input',
  { intentId: uuid(), questionId: z.string(), text: z.string() },
  'The owner answered a question; text is the answer',
);
export const QuestionPendingFrame = notification(
  'QuestionPendingFrame',
  'question.pending',
  { intentId: uuid(), questionId: z.string(), scope: z.enum(['intent', 'match']), opportunityId: nullable(uuid()) },
  'A question waits for the owner',
);
export const OpportunityNewFrame = notification('OpportunityNewFrame', 'opportunity.new', { opportunityId: uuid() }, 'An opportunity was opened');
export const OpportunityStatusFrame = notification(
  'OpportunityStatusFrame',
  'opportunity.status',
  { opportunityId: uuid(), intentId: nullable(uuid()), status: z.enum(['negotiating', 'pending', 'accepted', 'rejected', 'expired']) },
  'An opportunity\'s status changed',
);
export const IntentCreatedFrame = notification('IntentCreatedFrame', 'intent.created', { intentId: uuid() }, 'An intent was created');
export const IntentLifecycleFrame = notification(
  'IntentLifecycleFrame',
  'intent.lifecycle',
  { intentId: uuid(), status: z.enum(['active', 'paused', 'archived']) },
  'An intent was paused, resumed or archived',
);

export const FRAME_TYPES = [
  'connected',
  'message',
  'negotiation.turn',
  'negotiation.settled',
  'negotiation.changed',
  'principal.input',
  'question.pending',
  'opportunity.new',
  'opportunity.status',
  'intent.created',
  'intent.lifecycle',
] as const;

/** A frame of a type the documents do not list (a newer one): a client ignores it. */
export const OtherFrame = named(
  'OtherFrame',
  z.looseObject({ ...logged, type: z.string().meta({ not: { enum: [...FRAME_TYPES] } }) }),
  'A frame of a type not listed here; a client ignores a type it does not handle',
);

/** A frame of the log (every frame but the handshake). */
export const LoggedFrame = named(
  'LoggedFrame',
  z.union([
    MessageFrame,
    NegotiationTurnFrame,
    NegotiationSettledFrame,
    NegotiationChangedFrame,
    PrincipalInputFrame,
    QuestionPendingFrame,
    OpportunityNewFrame,
    OpportunityStatusFrame,
    IntentCreatedFrame,
    IntentLifecycleFrame,
    OtherFrame,
  ]),
);

/** The `data:` of one server-sent event of GET /api/events. */
export const EventFrame = named('EventFrame', z.union([ConnectedFrame, LoggedFrame]), 'One frame of the event stream (a client ignores a type it does not handle)');
