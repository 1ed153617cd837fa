import { Arg, Args, Authorized, Ctx, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { HandshakeFrame, StreamFrame } from '../../domain/events/frame-feed';
import type { GraphQLContext } from '../context';
import { EventFrameType, EventLogArgs, EventLogType } from './event.types';
import { signedIn } from '../signed-in';

/** The caller's event feed: the log page and the live stream (the SSE route runs this subscription). */
@Resolver()
export class EventResolver {
  @Authorized()
  @Query(() => EventLogType, { description: 'The same feed as the stream, as JSON pages; keeps no cursor' })
  eventLog(@Args(() => EventLogArgs) args: EventLogArgs, @Ctx() ctx: GraphQLContext): Promise<EventLogType> {
    return ctx.services.eventStream.log(signedIn(ctx), { ...args });
  }

  @Authorized()
  @Subscription(() => EventFrameType, {
    description: 'The handshake, then frames replayed after `after` and followed live; `consumer` reads from an agent\'s server-side offset',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, { after?: string | null; consumer?: string | null }, GraphQLContext>) => context.services.eventStream.open(signedIn(context), { after: args.after, consumer: args.consumer }),
  })
  events(
    @Root() frame: StreamFrame,
    @Arg('after', () => String, { nullable: true, description: 'Resume after this eventId (Last-Event-ID)' }) _after: string | null,
    @Arg('consumer', () => String, { nullable: true, description: 'An agent id: that agent\'s offset, shared by its connections' }) _consumer: string | null,
  ): EventFrameType {
    if (!('eventId' in frame)) {
      // The handshake's JSON stays { type, at }; where the stream started travels as its id.
      const { resumeFrom, ...hello } = frame as HandshakeFrame;
      return { eventId: resumeFrom ?? null, at: hello.at, type: hello.type, frame: hello, json: hello };
    }
    return { eventId: frame.eventId, at: frame.at, type: frame.type, frame: frame as unknown as Record<string, unknown>, json: frame as unknown as Record<string, unknown> };
  }
}
