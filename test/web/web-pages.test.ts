import { WebPage } from '../../src/entities/web-page.entity';
import { isStreamId } from '../../src/domain/shared/stream-id';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';

describe('web pages', () => {
  let app: TestApp;
  let pages: PageServer;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    pages.route('/article', serve.html(articleHtml()));
    pages.route('/moved', serve.redirect('/article', 301));
    pages.route('/empty', serve.html('<html><body></body></html>'));
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true' });
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  const create = (body: unknown, auth: Record<string, string> = u.auth) => app.http.post('/api/web-pages').set(auth).send(body as object);

  it('POST { url } fetches the page and keeps its readable text under a stream-id-like id', async () => {
    const res = await create({ url: pages.url('/moved') }).expect(201);
    const { webPage } = res.body;
    expect(webPage).toEqual({
      id: expect.stringMatching(/^kjzl6kcy[0-9a-z]{55}$/),
      url: pages.url('/article'),
      title: expect.stringContaining('How Llamas Learned to Code'),
      content: expect.stringContaining('Llamas in the high Andes have long been known for their patience.'),
      createdAt: expect.any(String),
    });
    expect(isStreamId(webPage.id)).toBe(true);
    expect(Math.abs(Date.parse(webPage.createdAt) - Date.now())).toBeLessThan(60_000);
    const read = await app.http.get(`/api/web-pages/${webPage.id}`).set(u.auth).expect(200);
    expect(read.body).toEqual({ webPage });
  });

  it('POST { url, title, content } keeps what was given, without fetching', async () => {
    const before = pages.requests.length;
    const res = await create({ url: 'https://Example.COM/notes#part', title: 'My notes', content: 'Line one.\n\nLine two.' }).expect(201);
    expect(res.body.webPage).toMatchObject({ url: 'https://example.com/notes', title: 'My notes', content: 'Line one.\n\nLine two.' });
    expect(pages.requests.length).toBe(before);
    const untitled = await create({ url: 'https://example.com/raw', content: 'Just text.' }).expect(201);
    expect(untitled.body.webPage.title).toBeNull();
    // A page given directly is a node like any other: ids differ per node.
    expect(untitled.body.webPage.id).not.toBe(res.body.webPage.id);
  });

  it('stores the page for its creator and drops it with the account', async () => {
    const other = await createUser(app);
    const res = await create({ url: 'https://example.com/mine', content: 'Mine.' }, other.auth).expect(201);
    const row = await app.withEm((em) => em.findOne(WebPage, { id: res.body.webPage.id }));
    expect(row?.createdById).toBe(other.user.id);
    await app.withEm((em) => em.getConnection().execute('delete from users where id = ?', [other.user.id]));
    await app.http.get(`/api/web-pages/${res.body.webPage.id}`).set(u.auth).expect(404);
  });

  it('exposes the creator through the graph', async () => {
    const res = await create({ url: 'https://example.com/graph', content: 'Graph.' }).expect(201);
    const gql = await app.http
      .post('/graphql')
      .set(u.auth)
      .send({ query: 'query($id: ID!) { webPage(id: $id) { id createdBy { id name } } }', variables: { id: res.body.webPage.id } })
      .expect(200);
    expect(gql.body).toEqual({ data: { webPage: { id: res.body.webPage.id, createdBy: { id: u.user.id, name: u.user.name } } } });
  });

  it('refuses what cannot be read or stored', async () => {
    expect((await create({ url: pages.url('/empty') }).expect(422)).body.error).toBe('no_readable_content');
    expect((await create({ url: 'http://10.0.0.1/' }).expect(403)).body.error).toBe('blocked_address');
    expect((await create({ url: 'javascript:alert(1)', content: 'x' }).expect(400)).body.error).toBe('unsupported_scheme');
    expect((await create({}).expect(400)).body.error).toBe('invalid_request');
    expect((await create({ url: 'https://example.com/', content: '   ' }).expect(400)).body).toEqual({
      error: 'invalid_request',
      details: [{ path: 'content', message: 'must not be empty; omit it to fetch the page' }],
    });
    expect((await create({ url: 'https://example.com/', title: 'Only a title' }).expect(400)).body.details).toEqual([
      { path: 'content', message: 'is required when title is given; send { url } alone to fetch the page' },
    ]);
  });

  it('GET answers 404 for an unknown or malformed id', async () => {
    const res = await app.http.get('/api/web-pages/kjzl6kcym7w8y5eclmbdut8y5l5ouf67x7kifob9g971etopu4gj604ka28djej').set(u.auth).expect(404);
    expect(res.body).toEqual({ error: 'not_found', detail: 'Web page not found' });
    await app.http.get('/api/web-pages/not-an-id').set(u.auth).expect(404);
  });

  it('needs a credential; an API key will do', async () => {
    await app.http.post('/api/web-pages').send({ url: 'https://example.com/', content: 'x' }).expect(401);
    const res = await create({ url: 'https://example.com/k', content: 'x' }).expect(201);
    await app.http.get(`/api/web-pages/${res.body.webPage.id}`).expect(401);
    const { headers } = await createApiKey(app, u.user.id);
    await create({ url: 'https://example.com/key', content: 'By key.' }, headers).expect(201);
    await app.http.get(`/api/web-pages/${res.body.webPage.id}`).set(headers).expect(200);
  });
});
