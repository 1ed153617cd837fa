import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';

/** With OPENAI_BASE_URL set, the model writes the scrape extract and the profile suggestion. */
describe('web routes with a language model', () => {
  let app: TestApp;
  let pages: PageServer;
  let llm: FakeOpenAI;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    llm = await startFakeOpenAI();
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true', OPENAI_BASE_URL: llm.url, OPENAI_MODEL: 'test-model' });
    u = await createUser(app);
    pages.route('/article', serve.html(articleHtml()));
    pages.route(
      '/me',
      serve.html(
        articleHtml({
          title: 'Ana Quispe',
          paragraphs: ['I run a llama logistics cooperative in Cusco and write software for it on weekends.', 'Contact me for partnerships.'],
        }),
      ),
    );
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
    await pages.close();
  });

  beforeEach(() => {
    llm.requests.length = 0;
  });

  it('scrape: returns the model extract for an objective, sending it the page text', async () => {
    llm.chat = () => JSON.stringify({ extract: 'The cooperative is looking for investors to expand to Arequipa and Puno.' });
    const res = await app.http.post('/api/scrape').set(u.auth).send({ url: pages.url('/article'), objective: 'funding needs' }).expect(200);
    expect(res.body).toEqual({
      url: pages.url('/article'),
      title: expect.stringContaining('How Llamas Learned to Code'),
      text: 'The cooperative is looking for investors to expand to Arequipa and Puno.',
    });
    expect(llm.requests).toHaveLength(1);
    const sent = llm.requests[0].body;
    expect(sent.model).toBe('test-model');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    const user = sent.messages.find((m: { role: string }) => m.role === 'user').content as string;
    expect(user).toContain('Objective: funding needs');
    expect(user).toContain('Llamas in the high Andes have long been known for their patience.');
  });

  it('scrape: without an objective the model is not asked', async () => {
    await app.http.post('/api/scrape').set(u.auth).send({ url: pages.url('/article') }).expect(200);
    expect(llm.requests).toHaveLength(0);
  });

  it('scrape: when the model fails, the matching passages are returned', async () => {
    llm.chat = () => {
      throw new Error('model overloaded');
    };
    const res = await app.http.post('/api/scrape').set(u.auth).send({ url: pages.url('/article'), objective: 'investors' }).expect(200);
    expect(res.body.text).toBe('Funding came from a regional grant of 40,000 soles. The cooperative is now looking for investors to expand the programme to Arequipa and Puno next year.');
    expect(llm.requests).toHaveLength(1);
  });

  it('enrichment: the model writes the suggestion from the pages read; socials come from the links', async () => {
    llm.chat = () =>
      JSON.stringify({
        intro: 'I run a llama logistics cooperative in Cusco and write its software.',
        location: 'Cusco, Peru',
        intents: ['Looking for partners in Andean logistics', '', 'Offering advice on pack-animal routing'],
      });
    const res = await app.http
      .post('/api/enrichment/enrich')
      .set(u.auth)
      .send({ name: 'Ana Quispe', websites: [pages.url('/me')], github: pages.url('/missing-profile') })
      .expect(200);
    expect(res.body).toEqual({
      suggestion: {
        intro: 'I run a llama logistics cooperative in Cusco and write its software.',
        location: 'Cusco, Peru',
        socials: [
          { label: 'website', value: pages.url('/me') },
          { label: 'github', value: pages.url('/missing-profile') },
        ],
        intents: ['Looking for partners in Andean logistics', 'Offering advice on pack-animal routing'],
      },
      sources: {
        read: [{ label: 'website', url: pages.url('/me') }],
        failed: [{ label: 'github', url: pages.url('/missing-profile'), reason: 'upstream_error', detail: 'The page answered HTTP 404' }],
      },
    });
    expect(llm.requests).toHaveLength(1);
    const user = llm.requests[0].body.messages.find((m: { role: string }) => m.role === 'user').content as string;
    expect(user).toContain('Person: Ana Quispe');
    expect(user).toContain('I run a llama logistics cooperative in Cusco');
  });

  it('enrichment: a model answer without the suggestion shape falls back to the pages’ own text', async () => {
    llm.chat = () => JSON.stringify({ intro: 42 });
    const res = await app.http.post('/api/enrichment/enrich').set(u.auth).send({ name: 'Ana Quispe', websites: [pages.url('/me')] }).expect(200);
    expect(res.body.suggestion.intro).toBe('I run a llama logistics cooperative in Cusco and write software for it on weekends.');
  });

  it('enrichment: with nothing read the model is not asked', async () => {
    const res = await app.http.post('/api/enrichment/enrich').set(u.auth).send({ websites: [pages.url('/nope')] }).expect(200);
    expect(res.body.suggestion).toEqual({ intro: null, location: null, socials: [{ label: 'website', value: pages.url('/nope') }], intents: [] });
    expect(llm.requests).toHaveLength(0);
  });
});
