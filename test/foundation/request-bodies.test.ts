import 'reflect-metadata';
import { request } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { createNetwork } from '../intents/network-factory';
import { routeTables } from '../../src/rest/routes';

/**
 * Request bodies (issue 18, findings 2 and 5): JSON nested thousands deep is a 400, not a
 * stack overflow; a body of a type the service does not read is 415, never a 2xx that ignored
 * it; JSON that is not valid UTF-8 is 400.
 */
/** JSON text of an object nested `levels` deep (JSON.stringify itself overflows at 10,000). */
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;

const rawPost = (app: TestApp, path: string, auth: Record<string, string>, body: Buffer) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: new Uint8Array(body) });

describe('request bodies', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let conversationId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ada = await createUser(app);
    bob = await createUser(app);
    conversationId = (await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: bob.user.id }).expect(200)).body.conversation.id;
  });
  afterAll(() => app.close());

  it('refuses JSON nested 10,000 deep with 400 on REST and GraphQL', async () => {
    const body = `{"parts":[{"kind":"text","text":"hi"}],"metadata":${deep(10_000)}}`;
    const rest = await app.http.post(`/api/conversations/${conversationId}/messages`).set(ada.auth).set('content-type', 'application/json').send(body);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ error: 'invalid_request', details: [{ path: '', message: 'The body nests objects and arrays deeper than 64 levels' }] });

    const gql = await app.http
      .post('/graphql')
      .set(ada.auth)
      .set('content-type', 'application/json')
      .send(`{"query":"mutation($id: ID!, $input: PostMessageInput!) { postMessage(conversationId: $id, input: $input) { id } }","variables":{"id":"${conversationId}","input":{"parts":[],"metadata":${deep(10_000)}}}}`);
    expect(gql.status).toBe(400);
    expect(gql.body.error).toBe('invalid_request');

    // Nesting within the limit still goes through.
    const ok = await app.http.post(`/api/conversations/${conversationId}/messages`).set(ada.auth).send({ parts: [{ kind: 'text', text: 'hi' }], metadata: JSON.parse(deep(20)) });
    expect(ok.status).toBe(201);
  });

  it('answers 415 to a body of a type it does not read, and changes nothing', async () => {
    const network = await createNetwork(app, [ada.user.id], 'Unchanged title');
    const put = await app.http.put(`/api/networks/${network.id}`).set(ada.auth).set('content-type', 'text/plain').send('title=Changed');
    expect(put.status).toBe(415);
    expect(put.body).toEqual({ error: 'unsupported_media_type', detail: 'A body of type "text/plain" is not read here; send application/json' });
    expect((await app.http.get(`/api/networks/${network.id}`).set(ada.auth).expect(200)).body.network.title).toBe('Unchanged title');

    const form = await app.http.post('/api/indexes').set(ada.auth).set('content-type', 'application/x-www-form-urlencoded').send('title=Mine');
    expect(form.status).toBe(415);
    const multipart = await app.http.put(`/api/networks/${network.id}`).set(ada.auth).field('title', 'Changed');
    expect(multipart.status).toBe(415);
    const gql = await app.http.post('/graphql').set(ada.auth).set('content-type', 'text/plain').send('{ me { id } }');
    expect(gql.status).toBe(415);
    expect(gql.body.error).toBe('unsupported_media_type');

    // No body at all, whatever the content-type says, is read as no fields.
    const empty = await app.http.post(`/api/conversations/${conversationId}/read`).set(ada.auth).set('content-type', 'text/plain');
    expect(empty.status).toBe(200);
  });

  it('refuses JSON that is not valid UTF-8 with 400', async () => {
    const bytes = Buffer.concat([Buffer.from('{"parts":[{"kind":"text","text":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}]}')]);
    const res = await rawPost(app, `/api/conversations/${conversationId}/messages`, ada.auth, bytes);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_json', details: [{ path: '', message: 'The body is not valid UTF-8' }] });
    const gql = await rawPost(app, '/graphql', ada.auth, Buffer.concat([Buffer.from('{"query":"{ me { id } }","x":"'), Buffer.from([0xff]), Buffer.from('"}')]));
    expect(gql.status).toBe(400);
  });

  // Every route of the route tables, and /graphql: the body reader sits in front of all of them,
  // so none can ignore a body it does not read, or take bytes that are not UTF-8.
  it('answers 415 to a body it does not read and 400 to JSON that is not UTF-8, on every route', async () => {
    const routes = [...routeTables.flat().map((r) => ({ method: r.method, path: r.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000'), upload: Boolean(r.upload) })), { method: 'POST', path: '/graphql', upload: false }];
    expect(routes.length).toBeGreaterThanOrEqual(100);
    // node:http, not fetch: a GET with a body is a request a client may send too.
    const send = (method: string, path: string, type: string, body: Buffer) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(`${app.url}${path}`, { method, headers: { ...ada.auth, 'content-type': type, 'content-length': String(body.length) } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            let parsed: unknown = null;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* not JSON */
            }
            resolve({ status: res.statusCode!, body: parsed });
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    const notUtf8 = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const wrong: Array<{ route: string; sent: string; status: number; error: unknown }> = [];
    for (const r of routes) {
      const sent: Array<[string, string, Buffer, number, string]> = [
        ['text/plain', 'text', Buffer.from('title=x'), 415, 'unsupported_media_type'],
        ['application/x-www-form-urlencoded', 'form', Buffer.from('title=x'), 415, 'unsupported_media_type'],
        ['application/json', 'invalid UTF-8', notUtf8, 400, 'invalid_json'],
      ];
      // Multipart is read only where an upload is taken.
      if (!r.upload) sent.push(['multipart/form-data; boundary=b', 'multipart', Buffer.from('--b\r\ncontent-disposition: form-data; name="title"\r\n\r\nx\r\n--b--\r\n'), 415, 'unsupported_media_type']);
      for (const [type, name, body, status, error] of sent) {
        const res = await send(r.method, r.path, type, body);
        if (res.status !== status || res.body?.error !== error) wrong.push({ route: `${r.method} ${r.path}`, sent: name, status: res.status, error: res.body?.error });
      }
    }
    expect(wrong).toEqual([]);
  });
});
