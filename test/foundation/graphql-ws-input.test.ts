import 'reflect-metadata';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/**
 * Hostile input over graphql-ws (issue 18, findings 2, 6 and 7): what the HTTP body reader and
 * error formatting refuse or cap, the WebSocket transport refuses and caps too. Variables nested
 * thousands deep are a 400-like `invalid_request`, not an internal error; an operation refused
 * before it runs quotes the refused value capped; a message larger than an HTTP body may be
 * closes the socket instead of being parsed.
 */
interface Socket {
  ws: WebSocket;
  /** The next message of this operation id whose type is not `ping`/`pong`. */
  next(id: string): Promise<{ type: string; payload?: any }>;
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
}

async function open(app: TestApp, token: string): Promise<Socket> {
  const ws = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const inbox: Array<{ id?: string; type: string; payload?: any }> = [];
  const wake: Array<() => void> = [];
  ws.on('message', (raw) => {
    inbox.push(JSON.parse(String(raw)));
    wake.splice(0).forEach((w) => w());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const take = async (pred: (m: { id?: string; type: string }) => boolean) => {
    for (;;) {
      const at = inbox.findIndex(pred);
      if (at >= 0) return inbox.splice(at, 1)[0];
      await new Promise<void>((r) => wake.push(r));
    }
  };
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await take((m) => m.type === 'connection_ack');
  return {
    ws,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: (id) => take((m) => m.id === id),
  };
}

/** JSON text of an object nested `levels` deep (JSON.stringify itself overflows at 10,000). */
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;

describe('graphql-ws and hostile input', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];
  const connect = async (who: TestUser) => {
    const s = await open(app, who.token);
    sockets.push(s);
    return s;
  };
  beforeAll(async () => {
    app = await startTestApp();
    ada = await createUser(app);
    bob = await createUser(app);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await app.close();
  });

  it('refuses variables nested 10,000 deep as invalid_request, and takes shallow ones', async () => {
    const conversationId = (await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: bob.user.id }).expect(200)).body.conversation.id;
    const s = await connect(ada);
    const query = 'mutation($id: ID!, $input: PostMessageInput!) { postMessage(conversationId: $id, input: $input) { id } }';
    // Sent as text: the variables are nested too deep for JSON.stringify to write them.
    s.send(`{"id":"deep","type":"subscribe","payload":{"query":${JSON.stringify(query)},"variables":{"id":"${conversationId}","input":{"parts":[{"kind":"text","text":"hi"}],"metadata":${deep(10_000)}}}}}`);
    const refused = await s.next('deep');
    expect(refused.type).toBe('error');
    expect(refused.payload).toEqual([
      {
        message: 'invalid_request',
        extensions: { code: 'BAD_REQUEST', http: { status: 400 }, details: [{ path: '', message: 'The variables nest objects and arrays deeper than 64 levels' }] },
      },
    ]);

    s.send({ id: 'shallow', type: 'subscribe', payload: { query, variables: { id: conversationId, input: { parts: [{ kind: 'text', text: 'hi' }], metadata: JSON.parse(deep(20)) } } } });
    const posted = await s.next('shallow');
    expect(posted.type).toBe('next');
    expect(posted.payload.errors).toBeUndefined();
    expect(posted.payload.data.postMessage.id).toEqual(expect.any(String));
  });

  it('quotes a refused value capped when the document does not validate', async () => {
    const s = await connect(ada);
    const huge = 'x'.repeat(200_000);
    s.send({ id: 'enum', type: 'subscribe', payload: { query: `mutation { createNetwork(input: { title: "Echo", joinPolicy: "${huge}" }) { id } }` } });
    const refused = await s.next('enum');
    expect(refused.type).toBe('error');
    expect(JSON.stringify(refused.payload).length).toBeLessThan(2_000);
    expect(refused.payload[0].message).toContain(`"${'x'.repeat(64)}…"`);
  });

  it('closes the socket on a message larger than an HTTP body may be, without reading it', async () => {
    // graphql-ws reports the socket's error on the console before the socket closes.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = await connect(ada);
    s.send({ id: 'big', type: 'subscribe', payload: { query: '{ me { id } }', variables: { filler: 'y'.repeat(8 * 1024 * 1024) } } });
    // An answer instead of the close means the message was read.
    const outcome = await Promise.race([s.closed, s.next('big').then((m) => ({ code: 0, reason: `answered ${m.type}` }))]);
    expect(outcome.code).toBe(1009);
    quiet.mockRestore();
    // The service goes on serving.
    const again = await connect(ada);
    again.send({ id: 'me', type: 'subscribe', payload: { query: '{ me { id } }' } });
    expect((await again.next('me')).payload.data.me.id).toBe(ada.user.id);
  });
});
