import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';

describe('POST /api/scrape', () => {
  let app: TestApp;
  let pages: PageServer;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true', WEB_FETCH_TIMEOUT_MS: '2500', WEB_FETCH_MAX_BYTES: '200000' });
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  const scrape = (body: unknown) => app.http.post('/api/scrape').set(u.auth).send(body as object);

  it('returns the normalized URL, the title and the readable text of an article', async () => {
    pages.route('/article', serve.html(articleHtml()));
    const res = await scrape({ url: `${pages.url('/article')}?utm_source=newsletter&id=7#comments` }).expect(200);
    expect(res.body).toEqual({ url: `${pages.url('/article')}?id=7`, title: expect.stringContaining('How Llamas Learned to Code'), text: expect.any(String) });
    const { text } = res.body as { text: string };
    expect(text).toContain('Llamas in the high Andes have long been known for their patience.');
    expect(text).toContain('looking for investors to expand the programme');
    // Paragraphs stay apart; navigation, scripts and styles are not text.
    expect(text).toContain('known for their patience. In 2024');
    expect(text).toMatch(/expected\.\n\nThe cooperative hired/);
    expect(text).not.toContain('window.tracking');
    expect(text).not.toContain('font-family');
    expect(text).not.toContain('Sports');
  });

  it('reads text/plain, gzip-encoded bodies and non-UTF-8 charsets', async () => {
    pages.route('/notes.txt', serve.text('First line of notes.\r\n\r\n\r\n\r\nSecond paragraph.  \r\n'));
    expect((await scrape({ url: pages.url('/notes.txt') }).expect(200)).body).toEqual({
      url: pages.url('/notes.txt'),
      title: null,
      text: 'First line of notes.\n\nSecond paragraph.',
    });

    const zipped = gzipSync(Buffer.from(articleHtml({ title: 'Zipped Page' })));
    pages.route('/zipped', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(zipped));
    expect((await scrape({ url: pages.url('/zipped') }).expect(200)).body.text).toContain('Llamas in the high Andes');

    const latin1 = Buffer.from('<html><head><title>Café</title></head><body><p>Crème brûlée à la carte, servie chaque jour.</p></body></html>', 'latin1');
    pages.route('/latin1', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(latin1));
    const res = await scrape({ url: pages.url('/latin1') }).expect(200);
    expect(res.body.text).toBe('Crème brûlée à la carte, servie chaque jour.');
    expect(res.body.title).toBe('Café');
  });

  it('reads a URL given without a scheme as https', async () => {
    // Our page server speaks plain HTTP, so https to it fails: the refusal shows the scheme chosen.
    const res = await scrape({ url: `127.0.0.1:${pages.port}/article` }).expect(422);
    expect(res.body.error).toBe('unreachable');
  });

  it('narrows the text to the passages matching an objective (no language model)', async () => {
    pages.route('/article', serve.html(articleHtml()));
    const res = await scrape({ url: pages.url('/article'), objective: 'Who are they looking for as investors?' }).expect(200);
    expect(res.body.text).toBe('Funding came from a regional grant of 40,000 soles. The cooperative is now looking for investors to expand the programme to Arequipa and Puno next year.');
    const none = await scrape({ url: pages.url('/article'), objective: 'submarine propulsion' }).expect(200);
    expect(none.body).toMatchObject({ url: pages.url('/article'), text: '' });
  });

  it('gives 422 for a page with nothing readable', async () => {
    pages.route('/empty', serve.html('<html><head><title>Nothing</title><script>var a = 1;</script></head><body></body></html>'));
    const res = await scrape({ url: pages.url('/empty') }).expect(422);
    expect(res.body).toEqual({ error: 'no_readable_content', detail: `The page at ${pages.url('/empty')} has no readable text` });
    pages.route('/blank.txt', serve.text('   \n\n  '));
    expect((await scrape({ url: pages.url('/blank.txt') }).expect(422)).body.error).toBe('no_readable_content');
  });

  it('follows a redirect chain of up to five hops, checking each', async () => {
    pages.route('/final', serve.html(articleHtml({ title: 'The Final Page' })));
    for (let i = 1; i <= 5; i++) pages.route(`/hop${i}`, serve.redirect(i === 5 ? '/final' : `/hop${i + 1}`, i % 2 ? 301 : 307));
    const before = pages.requests.length;
    const res = await scrape({ url: pages.url('/hop1') }).expect(200);
    expect(res.body.url).toBe(pages.url('/final'));
    expect(res.body.title).toContain('The Final Page');
    expect(pages.requests.slice(before).map((r) => r.path)).toEqual(['/hop1', '/hop2', '/hop3', '/hop4', '/hop5', '/final']);
  });

  it('refuses a sixth redirect', async () => {
    pages.route('/loop0', serve.redirect('/loop1'));
    for (let i = 1; i <= 6; i++) pages.route(`/loop${i}`, serve.redirect(`/loop${i + 1}`));
    const res = await scrape({ url: pages.url('/loop0') }).expect(422);
    expect(res.body).toEqual({ error: 'too_many_redirects', detail: 'The page redirected more than 5 times' });
  });

  it('refuses a redirect to a private address, a metadata address or another scheme', async () => {
    pages.route('/to-private', serve.redirect('http://10.1.2.3/admin'));
    pages.route('/to-metadata', serve.redirect('http://169.254.169.254/latest/meta-data/'));
    pages.route('/to-file', serve.redirect('file:///etc/passwd'));
    expect((await scrape({ url: pages.url('/to-private') }).expect(403)).body).toEqual({
      error: 'blocked_address',
      detail: 'The redirect target 10.1.2.3 is a private address, which is never fetched',
      range: 'private',
    });
    expect((await scrape({ url: pages.url('/to-metadata') }).expect(403)).body).toMatchObject({ error: 'blocked_address', range: 'metadata' });
    expect((await scrape({ url: pages.url('/to-file') }).expect(400)).body).toEqual({
      error: 'unsupported_scheme',
      detail: 'The redirect target uses file; only http and https are fetched',
    });
  });

  it('refuses an oversized body, declared or streamed', async () => {
    pages.route('/huge-streamed', serve.large(400_000));
    pages.route('/huge-declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(5_000_000) });
      res.write('<p>');
    });
    for (const path of ['/huge-streamed', '/huge-declared']) {
      const res = await scrape({ url: pages.url(path) }).expect(422);
      expect(res.body).toEqual({ error: 'response_too_large', detail: 'The page is larger than 200000 bytes', maxBytes: 200000 });
    }
  });

  it('refuses a body that only decompresses past the limit', async () => {
    const bomb = gzipSync(Buffer.from(`<html><body><p>${'a'.repeat(3_000_000)}</p></body></html>`));
    expect(bomb.length).toBeLessThan(200_000);
    pages.route('/bomb', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb));
    expect((await scrape({ url: pages.url('/bomb') }).expect(422)).body.error).toBe('response_too_large');
  });

  it('refuses content types other than HTML and plain text', async () => {
    pages.route('/data.json', serve.text('{"a":1}', 'application/json'));
    pages.route('/image.png', serve.text('PNG', 'image/png'));
    pages.route('/doc.pdf', serve.text('%PDF-1.4', 'application/pdf'));
    expect((await scrape({ url: pages.url('/data.json') }).expect(422)).body).toEqual({
      error: 'unsupported_content_type',
      detail: 'The page is application/json; only text/html and text/plain are read',
      contentType: 'application/json',
    });
    expect((await scrape({ url: pages.url('/image.png') }).expect(422)).body.contentType).toBe('image/png');
    expect((await scrape({ url: pages.url('/doc.pdf') }).expect(422)).body.contentType).toBe('application/pdf');
  });

  it('reports an unreachable server and an error status', async () => {
    const closed = await startPageServer();
    const deadUrl = closed.url('/gone');
    await closed.close();
    expect((await scrape({ url: deadUrl }).expect(422)).body).toEqual({ error: 'unreachable', detail: 'The server refused the connection' });
    pages.route('/missing', serve.status(404));
    pages.route('/broken', serve.status(503));
    expect((await scrape({ url: pages.url('/missing') }).expect(422)).body).toEqual({ error: 'upstream_error', detail: 'The page answered HTTP 404', status: 404 });
    expect((await scrape({ url: pages.url('/broken') }).expect(422)).body.status).toBe(503);
  });

  it('refuses bad input with 400', async () => {
    const noUrl = await scrape({}).expect(400);
    expect(noUrl.body.error).toBe('invalid_request');
    expect((await scrape({ url: 42 }).expect(400)).body.error).toBe('invalid_request');
    const long = await scrape({ url: pages.url('/article'), objective: 'x'.repeat(1001) }).expect(400);
    expect(long.body).toEqual({ error: 'invalid_request', details: [{ path: 'objective', message: 'must be at most 1000 characters' }] });
    await scrape({ url: pages.url('/article'), objective: 'x'.repeat(1000) }).expect(200);
    expect((await scrape({ url: 'ftp://example.com/file' }).expect(400)).body).toEqual({ error: 'unsupported_scheme', detail: 'The URL uses ftp; only http and https are fetched' });
    expect((await scrape({ url: 'http://exa mple.com' }).expect(400)).body).toEqual({ error: 'invalid_url', detail: 'The URL is not a valid URL' });
    expect((await scrape({ url: 'http://user:secret@example.com/' }).expect(400)).body.error).toBe('invalid_url');
  });

  it('needs a credential; an API key will do', async () => {
    pages.route('/article', serve.html(articleHtml()));
    await app.http.post('/api/scrape').send({ url: pages.url('/article') }).expect(401);
    const { headers } = await createApiKey(app, u.user.id);
    await app.http.post('/api/scrape').set(headers).send({ url: pages.url('/article') }).expect(200);
  });

  // The slow pages wait out the whole deadline, twice: a service of their own with a 500 ms one
  // (the other pages keep 2.5 s, so a loaded machine does not time them out).
  describe('with a short deadline', () => {
    let quick: TestApp;
    let owner: TestUser;
    beforeAll(async () => {
      quick = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true', WEB_FETCH_TIMEOUT_MS: '500' });
      owner = await createUser(quick);
    });
    afterAll(() => quick.close());

    it('gives up on a slow server', async () => {
      pages.route('/slow-headers', () => undefined);
      pages.route('/slow-body', serve.stall());
      for (const path of ['/slow-headers', '/slow-body']) {
        const res = await quick.http.post('/api/scrape').set(owner.auth).send({ url: pages.url(path) }).expect(422);
        expect(res.body).toEqual({ error: 'fetch_timeout', detail: 'The page did not answer within 500 ms' });
      }
    });
  });
});
