import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { pruneEvents } from '../../src/domain/events/retention';
import { createApiKey } from '../helpers/factories';
import { ageFrames, until, writeFrames } from './helpers';
import { openStream } from '../helpers/sse-client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvents, notification } from '../../src/domain/events/event-log';

type EventsResult = { events: { eventId: string | null; at: string; type: string; json: Record<string, unknown> } };

const EVENTS = 'subscription($after: String, $consumer: String) { events(after: $after, consumer: $consumer) { eventId at type json } }';

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
    const it = connect({ authorization: `Bearer ${token}` }).iterate<EventsResult>({
      query: EVENTS,
      variables: { after: '1' },
    });
    const sse = await openStream(app.url, '/api/events?after=1', auth);
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push((await it.next()).value!.data!.events);
      expect(got[0]).toEqual({ eventId: '1', at: expect.any(String), type: 'connected', json: { type: 'connected', at: got[0].at } });
      expect(got.slice(1).map((e) => e.eventId)).toEqual(['2', '3']);
      await writeFrames(app, user.id, 1);
      const live = (await it.next()).value!.data!.events;
      expect(live.eventId).toBe('4');
      const fromSse = await sse.waitFor(4);
      expect(fromSse.slice(1).map((m) => m.data)).toEqual([...got.slice(1), live].map((e) => e.json));
    } finally {
      await it.return?.();
      sse.close();
    }
  });

  it('types frame as the union of the documented frames; a type it does not list is an OtherFrame', async () => {
    const { user, token } = await createUser(app);
    await app.withEm((em) =>
      em.transactional((tx) =>
        appendEvents(tx as EntityManager, [
          { userId: user.id, frame: notification('intent.lifecycle', 'Intent paused', 'x', { intentId: user.id, status: 'paused' }) },
          { userId: user.id, frame: { type: 'test.frame', n: 1 } },
        ]),
      ),
    );
    const query = `subscription($after: String) { events(after: $after) { frame {
      __typename
      ... on ConnectedFrame { type at }
      ... on IntentLifecycleFrame { eventId type title data { intentId status } }
      ... on OtherFrame { eventId type }
    } } }`;
    const it = connect({ authorization: `Bearer ${token}` }).iterate<{ events: { frame: Record<string, unknown> } }>({ query, variables: { after: '0' } });
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push((await it.next()).value!.data!.events.frame);
      expect(got).toEqual([
        { __typename: 'ConnectedFrame', type: 'connected', at: expect.any(String) },
        { __typename: 'IntentLifecycleFrame', eventId: '1', type: 'intent.lifecycle', title: 'Intent paused', data: { intentId: user.id, status: 'paused' } },
        { __typename: 'OtherFrame', eventId: '2', type: 'test.frame' },
      ]);
    } finally {
      await it.return?.();
    }
  });

  it('ends the feed when the client completes the subscription', async () => {
    const { token } = await createUser(app);
    const it = connect({ authorization: `Bearer ${token}` }).iterate({ query: EVENTS });
    await it.next();
    expect(app.services.eventStream.stats().open).toBe(1);
    await it.return?.();
    await until(async () => (app.services.eventStream.stats().open === 0 ? true : undefined), 'the subscription to end');
    expect(app.services.eventStream.stats().open).toBe(0);
  });

  it("takes an API key as a connection parameter: the key's user, and its agent as a consumer", async () => {
    const { user } = await createUser(app);
    const { key } = await createApiKey(app, user.id);
    const agent = await createExternalAgent(app, user.id);
    await writeFrames(app, user.id, 2);
    const plain = connect({ 'x-api-key': key }).iterate<EventsResult>({ query: EVENTS, variables: { after: '0' } });
    const asConsumer = connect({ 'x-api-key': agent.headers['x-api-key'] }).iterate<EventsResult>({ query: EVENTS, variables: { consumer: agent.agentId } });
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push((await plain.next()).value!.data!.events);
      expect(got.map((e) => e.type)).toEqual(['connected', 'test.frame', 'test.frame']);
      expect(got.slice(1).map((e) => e.eventId)).toEqual(['1', '2']);
      const consumerHello = (await asConsumer.next()).value!.data!.events;
      expect(consumerHello.type).toBe('connected');
      // A consumer's offset is the server's: its handshake names no id to resume from.
      expect(consumerHello.eventId).toBeNull();
      await writeFrames(app, user.id, 1);
      expect((await asConsumer.next()).value!.data!.events.eventId).toBe('3');
      expect((await plain.next()).value!.data!.events.eventId).toBe('3');
    } finally {
      await plain.return?.();
      await asConsumer.return?.();
    }
  });

  it('refuses an unknown API key at connection time', async () => {
    const it = connect({ 'x-api-key': 'im_not_a_key' }).iterate({ query: EVENTS });
    await expect(it.next()).rejects.toMatchObject({ code: 4403 });
  });

  it('moves a consumer whose offset is older than the retention up to the oldest kept frame, and drops the records of pruned frames', async () => {
    const { user } = await createUser(app);
    const agent = await createExternalAgent(app, user.id);
    const first = connect({ 'x-api-key': agent.headers['x-api-key'] }).iterate<EventsResult>({ query: EVENTS, variables: { consumer: agent.agentId } });
    expect((await first.next()).value!.data!.events.type).toBe('connected');
    await writeFrames(app, user.id, 2);
    expect((await first.next()).value!.data!.events.eventId).toBe('1');
    expect((await first.next()).value!.data!.events.eventId).toBe('2');
    await first.return?.();
    const position = () => app.withEm((em) => em.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ?`, [agent.agentId]));
    await until(async () => ((await position())[0].position === '2' ? true : undefined), 'the consumer at 2');
    await writeFrames(app, user.id, 4);
    // Frames 1 to 4 are past the retention: the consumer's offset (2) is older than what is kept.
    await ageFrames(app, user.id, 4, 8);
    expect(await pruneEvents(app.services.orm)).toBeGreaterThanOrEqual(4);
    const records = await app.withEm((em) => em.execute<Array<{ event_id: string }>>(`select event_id from event_consumer_claims where agent_id = ?`, [agent.agentId]));
    expect(records).toEqual([]);

    const again = connect({ 'x-api-key': agent.headers['x-api-key'] }).iterate<EventsResult>({ query: EVENTS, variables: { consumer: agent.agentId } });
    try {
      expect((await again.next()).value!.data!.events.type).toBe('connected');
      expect((await again.next()).value!.data!.events.eventId).toBe('5');
      expect((await again.next()).value!.data!.events.eventId).toBe('6');
    } finally {
      await again.return?.();
    }
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

/** A WebSocket whose reading can be stopped, like a client that hangs. */
const sockets: PausableWebSocket[] = [];
class PausableWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    sockets.push(this);
  }
}

describe('graphql-ws clients that stop reading', () => {
  const SLOW_MS = 2000;
  const BIG = 160 * 1024;
  const TOTAL = 150;
  let app: TestApp;
  const clients: Client[] = [];
  const connect = (connectionParams: Record<string, string>) => {
    const c = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: PausableWebSocket, connectionParams, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    app = await startTestApp({ EVENTS_SLOW_CLIENT_MS: String(SLOW_MS) });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
    sockets.splice(0).forEach((s) => s.terminate());
  });
  afterAll(() => app.close());

  it('are cut off within EVENTS_SLOW_CLIENT_MS holding one frame, and a resume by id loses and repeats nothing', async () => {
    const { user } = await createUser(app);
    const agent = await createExternalAgent(app, user.id);
    const it = connect({ 'x-api-key': agent.headers['x-api-key'] }).iterate<EventsResult>({ query: EVENTS, variables: { consumer: agent.agentId } });
    expect((await it.next()).value!.data!.events.type).toBe('connected');
    await writeFrames(app, user.id, 3);
    const read: number[] = [];
    for (let i = 0; i < 3; i++) read.push(Number((await it.next()).value!.data!.events.eventId));
    expect(read).toEqual([1, 2, 3]);
    expect(app.services.eventStream.stats().open).toBe(1);

    // The client stops reading its socket; the frames pile up on the server's side.
    sockets[0].pause();
    await writeFrames(app, user.id, TOTAL, { size: BIG, oneTransaction: true });
    const stalledAt = Date.now();
    await until(async () => (app.services.eventStream.stats().open === 0 ? true : undefined), 'the cut-off', 3 * SLOW_MS + 10_000);
    // Cut off by the ping the client never answered: a ping every SLOW_MS / 2, then SLOW_MS / 2 to answer.
    expect(Date.now() - stalledAt).toBeLessThan(SLOW_MS + 5000);
    // The server pulled a frame only when the socket had taken the previous one: most were never read from the log.
    const [{ position }] = await app.withEm((em) => em.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ?`, [agent.agentId]));
    expect(Number(position)).toBeLessThan(3 + TOTAL / 2);

    const again = connect({ 'x-api-key': agent.headers['x-api-key'] }).iterate<EventsResult>({ query: EVENTS, variables: { consumer: agent.agentId, after: '3' } });
    expect((await again.next()).value!.data!.events.type).toBe('connected');
    const rest: number[] = [];
    for (let i = 0; i < TOTAL; i++) rest.push(Number((await again.next()).value!.data!.events.eventId));
    expect(rest).toEqual(Array.from({ length: TOTAL }, (_, i) => 4 + i));
    await again.return?.();
  }, 60_000);
});
