import { int, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
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
    variables: (r) => ({ after: str(r.query.after), limit: int(str(r.query.limit)) }),
    body: (d) => ({ events: d.eventLog.events, next: d.eventLog.next }),
  },
  {
    method: 'GET',
    path: '/api/events',
    operation: 'EventStream',
    variables: (r) => ({ after: resumeFrom(r), consumer: str(r.query.consumer) }),
    stream: (res, results, _r, services) =>
      writeSse(res, results, {
        keepaliveMs: services.config.EVENTS_KEEPALIVE_MS,
        slowClientMs: services.config.EVENTS_SLOW_CLIENT_MS,
        logger: services.logger,
        closers: services.streamClosers,
        toEvent: (d) => ({ id: d.events.eventId, data: d.events.frame }),
        onCutOff: () => services.eventStream.noteCutOff(),
      }),
  },
];
