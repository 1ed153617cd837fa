import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';

const TOPICS = ['identity-context', 'signals', 'communities-networks', 'opportunities', 'negotiations', 'workflows'];
const topicFile = (name: string) => readFileSync(join(__dirname, '..', '..', 'docs', 'topics', `${name}.md`), 'utf8');

describe('subscribe and docs', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const rows = (email: string) =>
    app.withEm((em) => em.execute<Array<Record<string, string | null>>>(`select email, type, name, what_you_do, who_to_meet from subscribers where email = ? order by type`, [email]));

  describe('POST /api/subscribe', () => {
    it('{ success: true } with no credential; newsletter by default', async () => {
      await app.http.post('/api/subscribe').send({ email: 'Ada@Example.test ' }).expect(200, { success: true });
      expect(await rows('ada@example.test')).toEqual([{ email: 'ada@example.test', type: 'newsletter', name: null, what_you_do: null, who_to_meet: null }]);
    });

    it('a repeated email updates the row instead of failing, keeping fields it does not send', async () => {
      const email = 'grace@example.test';
      await app.http.post('/api/subscribe').send({ email, type: 'waitlist', name: 'Grace', whatYouDo: 'compilers', whoToMeet: 'navy' }).expect(200, { success: true });
      await app.http.post('/api/subscribe').send({ email: 'GRACE@example.test', type: 'waitlist', whoToMeet: 'admirals' }).expect(200, { success: true });
      expect(await rows(email)).toEqual([{ email, type: 'waitlist', name: 'Grace', what_you_do: 'compilers', who_to_meet: 'admirals' }]);
      // The newsletter is a separate sign-up of the same person.
      await app.http.post('/api/subscribe').send({ email }).expect(200, { success: true });
      expect((await rows(email)).map((r) => r.type)).toEqual(['newsletter', 'waitlist']);
    });

    it.each([
      ['no email', {}],
      ['an invalid email', { email: 'not-an-email' }],
      ['an email that is no string', { email: 42 }],
      ['an unknown type', { email: 'a@example.test', type: 'premium' }],
      ['a name of 201 characters', { email: 'a@example.test', name: 'x'.repeat(201) }],
      ['whoToMeet of 2001 characters', { email: 'a@example.test', whoToMeet: 'x'.repeat(2001) }],
    ])('400 for %s', async (_what, body) => {
      const res = await app.http.post('/api/subscribe').send(body).expect(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.length).toBeGreaterThan(0);
    });

    it('400 for a body that is not an object', async () => {
      await app.http.post('/api/subscribe').set('content-type', 'application/json').send('"a@example.test"').expect(400);
    });
  });

  describe('GET /api/docs', () => {
    let auth: { Authorization: string };
    beforeAll(async () => {
      auth = (await createUser(app)).auth;
    });

    it('without a topic: { topics, content } with the overview', async () => {
      const res = await app.http.get('/api/docs').set(auth).expect(200);
      expect(res.body).toEqual({ topics: TOPICS, content: topicFile('index') });
      for (const t of TOPICS) expect(res.body.content).toContain(t);
    });

    it.each(TOPICS)('topic %s: { topic, content } from docs/topics', async (topic) => {
      const res = await app.http.get(`/api/docs?topic=${topic}`).set(auth).expect(200);
      expect(res.body).toEqual({ topic, content: topicFile(topic) });
      expect(res.body.content.length).toBeGreaterThan(1000);
    });

    it('an unknown topic: 404 { error, topics }', async () => {
      const res = await app.http.get('/api/docs?topic=nope').set(auth).expect(404);
      expect(res.body).toEqual({ error: 'unknown_topic', topics: TOPICS });
    });

    it('an API key may read; 401 without a credential', async () => {
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      await app.http.get('/api/docs?topic=signals').set(headers).expect(200);
      await app.http.get('/api/docs').expect(401);
    });

    it('the topic name is matched without regard to case', async () => {
      expect((await app.http.get('/api/docs?topic=Signals').set(auth).expect(200)).body.topic).toBe('signals');
    });
  });
});
