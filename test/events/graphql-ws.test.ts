import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { writeFrames } from './helpers';
import { openStream } from '../helpers/sse-client';

const EVENTS = 'subscription($after: String, $consumer: String) { events(after: $after, consumer: $consumer) { eventId at type frame } }';

describe('GraphQL subscriptions over graphql-ws', () => {
  let app: TestApp;
  const clients: Client[] = [];
  const connect = (connectionParams: Record<string, string>) => {
    const c = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  afterAll(() => app.close());

  it('carries the same frames as the SSE stream: handshake, replay after a cursor, then live', async () => {
    const { user, token, auth } = await createUser(app);
    await writeFrames(app, user.id, 3);
    const it = connect({ authorization: `Bearer ${token}` }).iterate<{ events: { eventId: string | null; at: string; type: string; frame: Record<string, unknown> } }>({
      query: EVENTS,
      variables: { after: '1' },
    });
    const sse = await openStream(app.url, '/api/events?after=1', auth);
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push((await it.next()).value!.data!.events);
      expect(got[0]).toEqual({ eventId: null, at: expect.any(String), type: 'connected', frame: { type: 'connected', at: got[0].at } });
      expect(got.slice(1).map((e) => e.eventId)).toEqual(['2', '3']);
      await writeFrames(app, user.id, 1);
      const live = (await it.next()).value!.data!.events;
      expect(live.eventId).toBe('4');
      const fromSse = await sse.waitFor(4);
      expect(fromSse.slice(1).map((m) => m.data)).toEqual([...got.slice(1), live].map((e) => e.frame));
    } finally {
      await it.return?.();
      sse.close();
    }
  });

  it('ends the feed when the client completes the subscription', async () => {
    const { token } = await createUser(app);
    const it = connect({ authorization: `Bearer ${token}` }).iterate({ query: EVENTS });
    await it.next();
    expect(app.services.eventStream.stats().open).toBe(1);
    await it.return?.();
    for (let i = 0; i < 50 && app.services.eventStream.stats().open > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(app.services.eventStream.stats().open).toBe(0);
  });

  it('refuses an anonymous subscription and a consumer that is not the selected negotiator, with the domain codes', async () => {
    const anonymous = connect({}).iterate({ query: EVENTS });
    expect((await anonymous.next()).value).toEqual({ errors: [expect.objectContaining({ message: 'unauthorized', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })] });
    expect((await anonymous.next()).done).toBe(true);

    const { user, token } = await createUser(app);
    const idle = await createExternalAgent(app, user.id, { selected: false });
    const refused = connect({ authorization: `Bearer ${token}` }).iterate({ query: EVENTS, variables: { consumer: idle.agentId } });
    expect((await refused.next()).value).toEqual({ errors: [expect.objectContaining({ message: 'not_selected_negotiator', extensions: expect.objectContaining({ code: 'CONFLICT' }) })] });
  });
});
