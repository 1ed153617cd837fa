import { createUnionType, Field, ID, Int, ObjectType } from 'type-graphql';
import { MessagePartType } from '../conversations/conversation.types';
import { JSONObjectScalar } from '../shared/scalars';

/**
 * The documented frames (core-api.md, Events) as GraphQL types, so `EventFrame.frame` is typed
 * for codegen users. Resolved by `type`; a type this schema does not list (a newer frame) is an
 * `OtherFrame`, which a client ignores.
 */

@ObjectType('ConnectedFrame', { description: 'The handshake, first on every connection' })
class ConnectedFrame {
  @Field() type: string;
  @Field({ description: 'Server time' }) at: string;
}

@ObjectType('OtherFrame', { description: 'A frame of a type this schema does not list; `EventFrame.json` has all of it' })
class OtherFrame {
  @Field(() => ID) eventId: string;
  @Field() at: string;
  @Field() type: string;
}

@ObjectType('FrameMessage', { description: 'A message as a chat frame carries it (createdAt is the ISO text)' })
class FrameMessage {
  @Field(() => ID) id: string;
  @Field() role: string;
  @Field(() => [MessagePartType]) parts: MessagePartType[];
  @Field() createdAt: string;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => ID, { nullable: true }) senderId: string | null;
}

@ObjectType('MessageFrame', { description: 'A chat message: no title' })
class MessageFrame {
  @Field(() => ID) eventId: string;
  @Field() at: string;
  @Field() type: string;
  @Field(() => ID) conversationId: string;
  @Field(() => FrameMessage) message: FrameMessage;
}

@ObjectType('NegotiationTurnData')
class NegotiationTurnData {
  @Field(() => ID) opportunityId: string;
  @Field(() => ID) intentId: string;
  @Field(() => Int) turnIndex: number;
}

@ObjectType('NegotiationSettledData')
class NegotiationSettledData {
  @Field(() => ID) opportunityId: string;
  @Field(() => ID) intentId: string;
  @Field({ description: 'agreed, declined or closed' }) outcome: string;
}

@ObjectType('NegotiationChangedData')
class NegotiationChangedData {
  @Field(() => ID) intentId: string;
  @Field(() => ID, { nullable: true }) opportunityId?: string;
}

@ObjectType('PrincipalInputData')
class PrincipalInputData {
  @Field(() => ID) intentId: string;
  @Field() questionId: string;
  @Field({ description: 'The answer' }) text: string;
}

@ObjectType('QuestionPendingData')
class QuestionPendingData {
  @Field(() => ID) intentId: string;
  @Field() questionId: string;
  @Field({ description: 'intent or match' }) scope: string;
  @Field(() => ID, { nullable: true }) opportunityId: string | null;
}

@ObjectType('OpportunityNewData')
class OpportunityNewData {
  @Field(() => ID) opportunityId: string;
}

@ObjectType('OpportunityStatusData')
class OpportunityStatusData {
  @Field(() => ID) opportunityId: string;
  @Field(() => ID, { nullable: true }) intentId: string | null;
  @Field({ description: 'negotiating, pending, accepted, rejected or expired' }) status: string;
}

@ObjectType('IntentCreatedData')
class IntentCreatedData {
  @Field(() => ID) intentId: string;
}

@ObjectType('IntentLifecycleData')
class IntentLifecycleData {
  @Field(() => ID) intentId: string;
  @Field({ description: 'active, paused or archived' }) status: string;
}

/** A notification frame `{ eventId, at, type, id, title, body, data }` with its own data type. */
function notificationFrame<D>(name: string, data: new () => D, description: string) {
  @ObjectType(name, { description })
  class NotificationFrame {
    @Field(() => ID) eventId: string;
    @Field() at: string;
    @Field() type: string;
    @Field(() => ID) id: string;
    @Field() title: string;
    @Field() body: string;
    @Field(() => data) data: D;
  }
  return NotificationFrame;
}

const NOTIFICATIONS = {
  'negotiation.turn': notificationFrame('NegotiationTurnFrame', NegotiationTurnData, 'A turn was submitted; your seat is awaited'),
  'negotiation.settled': notificationFrame('NegotiationSettledFrame', NegotiationSettledData, 'A negotiation settled'),
  'negotiation.changed': notificationFrame('NegotiationChangedFrame', NegotiationChangedData, 'A negotiation changed other than by a turn'),
  'principal.input': notificationFrame('PrincipalInputFrame', PrincipalInputData, 'The owner answered a question'),
  'question.pending': notificationFrame('QuestionPendingFrame', QuestionPendingData, 'A question waits for the owner'),
  'opportunity.new': notificationFrame('OpportunityNewFrame', OpportunityNewData, 'An opportunity was opened'),
  'opportunity.status': notificationFrame('OpportunityStatusFrame', OpportunityStatusData, "An opportunity's status changed"),
  'intent.created': notificationFrame('IntentCreatedFrame', IntentCreatedData, 'An intent was created'),
  'intent.lifecycle': notificationFrame('IntentLifecycleFrame', IntentLifecycleData, 'An intent was paused, resumed or archived'),
};

const BY_TYPE: Record<string, new () => object> = { connected: ConnectedFrame, message: MessageFrame, ...NOTIFICATIONS };

export const EventFramePayload = createUnionType({
  name: 'EventFramePayload',
  description: 'One documented frame of the event stream, by its type',
  types: () => [ConnectedFrame, MessageFrame, ...Object.values(NOTIFICATIONS), OtherFrame] as const,
  resolveType: (value: { type?: unknown }) => (typeof value.type === 'string' && BY_TYPE[value.type]) || OtherFrame,
});
