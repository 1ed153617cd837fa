import { z } from 'zod';
import { int, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { EventFrame, LoggedFrame } from '../schemas/events.schemas';
import { errorBody, nullable, query } from '../schemas/schema-kit';
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
    request: { query: z.object({ after: query.string('The last eventId held'), limit: query.int('Default 100, at most 100') }) },
    response: z.object({ events: z.array(LoggedFrame), next: nullable(z.string()).meta({ description: 'The last id when the page is full, else null' }) }),
    errors: { 503: errorBody(undefined, 'The log is unavailable; try later') },
    variables: (r) => ({ after: str(r.query.after), limit: int(str(r.query.limit)) }),
    body: (d) => ({ events: d.eventLog.events, next: d.eventLog.next }),
  },
  {
    method: 'GET',
    path: '/api/events',
    operation: 'EventStream',
    summary: 'The server-sent event stream: a handshake, then frames; resume with Last-Event-ID or after',
    request: {
      query: z.object({
        after: query.string('Resume after this eventId (the Last-Event-ID header wins)'),
        consumer: query.string("One of your agents' ids: that agent's server-side offset"),
        token: query.string('The session, for clients that cannot send headers'),
      }),
    },
    content: { kind: 'sse', frame: EventFrame },
    errors: {
      404: errorBody(undefined, 'consumer is not one of your agents'),
      409: errorBody(undefined, 'consumer is not the selected negotiator: stop that work'),
    },
    variables: (r) => ({ after: resumeFrom(r), consumer: str(r.query.consumer) }),
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
