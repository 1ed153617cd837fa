import { Field, ID, ObjectType } from 'type-graphql';
import { logQuerySchema } from '../../domain/events/event-stream.schemas';
import { argsType } from '../shared/input-type';
import { JSONObjectScalar } from '../shared/scalars';
import { EventFramePayload } from './event-frame.types';

/** One frame of the caller's stream; `frame` is the whole documented JSON. */
@ObjectType('EventFrame')
export class EventFrameType {
  @Field(() => ID, { nullable: true, description: "The SSE id. On the connected handshake, the id the stream started after (resuming with it loses nothing sent since connecting); absent there on a consumer's stream" })
  eventId: string | null;

  @Field({ description: 'Server time' })
  at: string;

  @Field({ description: 'connected, message, negotiation.turn, ... (a client ignores types it does not handle)' })
  type: string;

  @Field(() => EventFramePayload, { description: 'The frame, typed by its type (select the members you handle)' })
  frame: Record<string, unknown>;

  @Field(() => JSONObjectScalar, { description: 'The frame exactly as the event stream writes it: eventId, at, type and the rest' })
  json: Record<string, unknown>;
}

@ObjectType('EventLog')
export class EventLogType {
  @Field(() => [JSONObjectScalar], { description: 'Frames, oldest first' })
  events: Array<Record<string, unknown>>;

  @Field(() => String, { nullable: true, description: 'The last eventId when the page is full, else null' })
  next: string | null;
}

/** The log page's arguments, derived from the domain's schema (docs/adr/0124-one-schema-per-input.md). */
export const EventLogArgs = argsType('EventLogArgs', logQuerySchema);
export type EventLogArgs = InstanceType<typeof EventLogArgs>;
