import { socialProfileUrl } from '../../src/domain/web/social-links.rules';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';

const SITE = articleHtml({
  title: 'Ana Quispe',
  description: 'Ana Quispe builds logistics software for Andean cooperatives.',
  paragraphs: [
    "I'm based in Cusco, Peru, where I run a llama logistics cooperative and write its routing software.",
    'We are looking for a technical co-founder who knows embedded systems. Happy to help other cooperatives with routing.',
    'Our routes cover twelve villages and two markets.',
  ],
  extraBody: `<p>Find me elsewhere:
    <a href="https://github.com/features">GitHub features</a>
    <a href="https://github.com/anaq">GitHub</a>
    <a href="https://x.com/anaquispe">X</a>
    <a href="https://x.com/intent/tweet">Share</a>
    <a href="https://www.linkedin.com/in/ana-quispe">LinkedIn</a></p>`,
});

const GITHUB_PROFILE = `<!doctype html><html><head><title>anaq (Ana Quispe) · GitHub</title>
<meta name="description" content="Routing software for pack animals. anaq has 12 repositories available.">
<script type="application/ld+json">{"@type":"Person","name":"Ana Quispe","homeLocation":{"@type":"Place","name":"Cusco, Peru"}}</script></head>
<body><div class="profile"><h1>Ana Quispe</h1><p>Routing software for pack animals.</p>
<ul><li itemprop="homeLocation"><span>Cusco, Peru</span></li></ul></div>
<div class="repos"><h2>Popular repositories</h2><p>llama-router: routes for pack animals across the Andes, with weights and schedules.</p></div></body></html>`;

describe('POST /api/enrichment/enrich (no language model)', () => {
  let app: TestApp;
  let pages: PageServer;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    pages.route('/ana', serve.html(SITE));
    pages.route('/gh/anaq', serve.html(GITHUB_PROFILE));
    pages.route('/empty', serve.html('<html><head><title>x</title></head><body></body></html>'));
    pages.route('/pdf', serve.text('%PDF-1.4', 'application/pdf'));
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true' });
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  const enrich = (body: unknown) => app.http.post('/api/enrichment/enrich').set(u.auth).send(body as object);

  it("builds the suggestion from the pages' own text and says what it read", async () => {
    const res = await enrich({ name: 'Ana Quispe', websites: [pages.url('/ana')] }).expect(200);
    expect(res.body).toEqual({
      suggestion: {
        intro: 'Ana Quispe builds logistics software for Andean cooperatives.',
        location: 'Cusco, Peru',
        socials: [
          { label: 'website', value: pages.url('/ana') },
          { label: 'github', value: 'https://github.com/anaq' },
          { label: 'twitter', value: 'https://x.com/anaquispe' },
          { label: 'linkedin', value: 'https://www.linkedin.com/in/ana-quispe' },
        ],
        intents: ['We are looking for a technical co-founder who knows embedded systems.', 'Happy to help other cooperatives with routing.'],
      },
      sources: { read: [{ label: 'website', url: pages.url('/ana') }], failed: [] },
    });
  });

  it('reads every given link, keeps the given ones as socials, and reports each failure with its reason', async () => {
    const res = await enrich({
      name: 'Ana Quispe',
      websites: [pages.url('/ana'), `${pages.url('/ana')}#again`, pages.url('/empty'), pages.url('/pdf'), 'http://10.0.0.5/'],
      github: pages.url('/gh/anaq'),
      telegram: 'not a handle!!',
      twitter: 'gopher://x.test/',
    }).expect(200);
    expect(res.body.sources).toEqual({
      read: [
        { label: 'website', url: pages.url('/ana') },
        { label: 'github', url: pages.url('/gh/anaq') },
      ],
      failed: [
        { label: 'twitter', url: 'gopher://x.test/', reason: 'unsupported_scheme', detail: 'The URL uses gopher; only http and https are fetched' },
        { label: 'telegram', url: 'not a handle!!', reason: 'invalid_url', detail: 'The telegram value is neither a URL nor a handle' },
        { label: 'website', url: pages.url('/empty'), reason: 'no_readable_content', detail: 'The page has no readable text' },
        { label: 'website', url: pages.url('/pdf'), reason: 'unsupported_content_type', detail: 'The page is application/pdf; only text/html and text/plain are read' },
        { label: 'website', url: 'http://10.0.0.5/', reason: 'blocked_address', detail: '10.0.0.5 is a private address, which is never fetched' },
      ],
    });
    // The given github link stands; the page's own github.com link does not replace it.
    expect(res.body.suggestion.socials).toEqual([
      { label: 'website', value: pages.url('/ana') },
      { label: 'website', value: pages.url('/empty') },
      { label: 'website', value: pages.url('/pdf') },
      { label: 'website', value: 'http://10.0.0.5/' },
      { label: 'github', value: pages.url('/gh/anaq') },
      { label: 'twitter', value: 'https://x.com/anaquispe' },
      { label: 'linkedin', value: 'https://www.linkedin.com/in/ana-quispe' },
    ]);
  });

  it("takes the location from a profile's markup", async () => {
    const res = await enrich({ github: pages.url('/gh/anaq') }).expect(200);
    expect(res.body.suggestion).toMatchObject({ intro: 'Routing software for pack animals. anaq has 12 repositories available.', location: 'Cusco, Peru', intents: [] });
  });

  it('answers an empty suggestion when no link is given or none can be read', async () => {
    const empty = { intro: null, location: null, socials: [], intents: [] };
    expect((await enrich({}).expect(200)).body).toEqual({ suggestion: empty, sources: { read: [], failed: [] } });
    expect((await enrich({ name: 'Ana Quispe' }).expect(200)).body.suggestion).toEqual(empty);
    const unread = await enrich({ websites: [pages.url('/empty')] }).expect(200);
    expect(unread.body.suggestion).toEqual({ ...empty, socials: [{ label: 'website', value: pages.url('/empty') }] });
  });

  it('saves nothing', async () => {
    await enrich({ name: 'Ana Quispe', websites: [pages.url('/ana')] }).expect(200);
    const me = await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect(me.body.user).toMatchObject({ intro: '', location: '', socials: [] });
  });

  it('refuses bad input with 400', async () => {
    const many = await enrich({ websites: Array.from({ length: 6 }, (_, i) => `https://site${i}.test/`) }).expect(400);
    expect(many.body).toEqual({ error: 'invalid_request', details: [{ path: 'websites', message: 'at most 5 websites' }] });
    expect((await enrich({ websites: [17] }).expect(400)).body.error).toBe('invalid_request');
    expect((await enrich({ github: { user: 'x' } }).expect(400)).body.error).toBe('invalid_request');
  });

  it('needs a credential; an API key will do', async () => {
    await app.http.post('/api/enrichment/enrich').send({ websites: [pages.url('/ana')] }).expect(401);
    const { headers } = await createApiKey(app, u.user.id);
    await app.http.post('/api/enrichment/enrich').set(headers).send({ websites: [pages.url('/ana')] }).expect(200);
  });
});

describe('social handles', () => {
  it('become profile URLs; URLs stay as given; anything else is refused', () => {
    expect(socialProfileUrl('github', 'octocat')).toBe('https://github.com/octocat');
    expect(socialProfileUrl('twitter', '@jack')).toBe('https://x.com/jack');
    expect(socialProfileUrl('telegram', '@durov')).toBe('https://t.me/durov');
    expect(socialProfileUrl('linkedin', 'in/jane-doe')).toBe('https://www.linkedin.com/in/jane-doe');
    expect(socialProfileUrl('linkedin', 'jane-doe')).toBe('https://www.linkedin.com/in/jane-doe');
    expect(socialProfileUrl('github', 'https://github.com/octocat')).toBe('https://github.com/octocat');
    expect(socialProfileUrl('twitter', 'x.com/jack')).toBe('x.com/jack');
    expect(socialProfileUrl('telegram', 'not a handle!!')).toBeNull();
    expect(socialProfileUrl('twitter', '@this_handle_is_far_too_long')).toBeNull();
  });
});
