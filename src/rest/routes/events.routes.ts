import { streamQuerySchema } from '../../domain/events/event-stream.schemas';
import { EventLogArgs } from '../../graphql/events/event.types';
import { str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { EventFrame } from '../schemas/events.schemas';
import { errorBody, inputFrom, query, requestQuery } from '../schemas/schema-kit';
import { writeSse } from '../sse-writer';

/** EventSource sends the last id it saw as a header when it reconnects; it wins over `after`. */
const resumeFrom = (r: RestRequest) => {
  const header = r.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() ? value.trim() : str(r.query.after);
};

/** core-api.md "Events": the stream (a subscription written as server-sent events) and the log. */
export const eventRoutes: RouteTable = [
  {
    method: 'GET',
    path: '/api/events/log',
    operation: 'EventLog',
    summary: 'The event feed as JSON pages, oldest first; keeps no cursor',
    request: { query: requestQuery(EventLogArgs) },
    errors: { 503: errorBody(undefined, 'The log is unavailable; try later') },
    variables: (r) => inputFrom(r.query, EventLogArgs),
  },
  {
    method: 'GET',
    path: '/api/events',
    operation: 'EventStream',
    summary: 'The server-sent event stream: a handshake, then frames; resume with Last-Event-ID or after',
    request: {
      // The token is the credential's (read by the router's guard), not the operation's.
      query: requestQuery(streamQuerySchema).extend({ token: query.string('The session, for clients that cannot send headers') }),
    },
    content: { kind: 'sse', frame: EventFrame },
    errors: {
      404: errorBody(undefined, 'consumer is not one of your agents'),
      409: errorBody(undefined, 'consumer is not the selected negotiator: stop that work'),
    },
    variables: (r) => ({ ...inputFrom(r.query, streamQuerySchema), after: resumeFrom(r) }),
    stream: (res, results, _r, services) =>
      writeSse(res, results, {
        keepaliveMs: services.config.EVENTS_KEEPALIVE_MS,
        slowClientMs: services.config.EVENTS_SLOW_CLIENT_MS,
        logger: services.logger,
        closers: services.streamClosers,
        toEvent: (d) => ({ id: d.events.eventId, data: d.events.json }),
        onCutOff: (buffered) => services.eventStream.noteCutOff(buffered),
      }),
  },
];
