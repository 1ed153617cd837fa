import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { ISO } from './helpers';

describe('public user reads', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  describe('GET /api/users/:userId', () => {
    it('returns { user } with exactly the public fields, with no credential', async () => {
      const u = await createUser(app, { name: 'Ada', intro: 'Engines' });
      await app.http
        .patch('/api/auth/profile/update')
        .set(u.auth)
        .send({ location: 'London', timezone: 'Europe/London', avatar: 'https://cdn.example.test/a.png', socials: [{ label: 'github', value: 'ada' }] })
        .expect(200);
      const res = await app.http.get(`/api/users/${u.user.id}`).expect(200);
      expect(res.body).toEqual({
        user: {
          id: u.user.id,
          name: 'Ada',
          intro: 'Engines',
          avatar: 'https://cdn.example.test/a.png',
          location: 'London',
          socials: [{ label: 'github', value: 'ada' }],
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
    });

    it('404 for an unknown or malformed id', async () => {
      expect((await app.http.get(`/api/users/${randomUUID()}`).expect(404)).body).toEqual({ error: 'not_found', detail: 'User not found' });
      await app.http.get('/api/users/not-a-uuid').expect(404);
    });
  });

  describe('GET /api/users/batch', () => {
    let viewer: TestUser;
    beforeAll(async () => {
      viewer = await createUser(app);
    });
    const batch = (query: string) => app.http.get(`/api/users/batch${query}`).set(viewer.auth);

    it('returns { users } in the order asked, each once, leaving unknown ids out', async () => {
      const a = await createUser(app, { name: 'A' });
      const b = await createUser(app, { name: 'B' });
      const res = await batch(`?ids=${b.user.id},${randomUUID()},${a.user.id},${b.user.id}`).expect(200);
      expect(res.body).toEqual({
        users: [
          { id: b.user.id, name: 'B', intro: '', avatar: '', location: '', socials: [] },
          { id: a.user.id, name: 'A', intro: '', avatar: '', location: '', socials: [] },
        ],
      });
    });

    it('accepts repeated ids= keys and upper-case uuids', async () => {
      const a = await createUser(app, { name: 'A' });
      const b = await createUser(app, { name: 'B' });
      const res = await batch(`?ids=${a.user.id.toUpperCase()}&ids=${b.user.id}`).expect(200);
      expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([a.user.id, b.user.id]);
    });

    it('400 for an invalid uuid', async () => {
      const a = await createUser(app);
      const res = await batch(`?ids=${a.user.id},nope`).expect(400);
      expect(res.body).toEqual({ error: 'invalid_request', details: [{ path: 'ids', message: 'Not a uuid: nope' }] });
    });

    it('400 without ids', async () => {
      expect((await batch('').expect(400)).body.error).toBe('invalid_request');
      expect((await batch('?ids=').expect(400)).body.error).toBe('invalid_request');
      expect((await batch('?ids=,,').expect(400)).body.error).toBe('invalid_request');
    });

    it('401 without a credential, and an API key may read', async () => {
      const a = await createUser(app);
      await app.http.get(`/api/users/batch?ids=${a.user.id}`).expect(401);
      const { headers } = await createApiKey(app, viewer.user.id);
      expect((await app.http.get(`/api/users/batch?ids=${a.user.id}`).set(headers).expect(200)).body.users).toHaveLength(1);
    });

    it('takes 100 ids and refuses 101 with 400', async () => {
      const ids = Array.from({ length: 100 }, () => randomUUID());
      await batch(`?ids=${ids.join(',')}`).expect(200, { users: [] });
      const res = await batch(`?ids=${[...ids, randomUUID()].join(',')}`).expect(400);
      expect(res.body).toEqual({ error: 'invalid_request', details: [{ path: 'ids', message: 'At most 100 ids per request' }] });
    });
  });

  it('GraphQL: users(ids) and user(id) are the same reads', async () => {
    const a = await createUser(app, { name: 'Graph' });
    const res = await app.http
      .post('/graphql')
      .set(a.auth)
      .send({ query: 'query($ids: [ID!]!, $id: ID!) { users(ids: $ids) { id name } user(id: $id) { name } }', variables: { ids: [a.user.id], id: a.user.id } })
      .expect(200);
    expect(res.body).toEqual({ data: { users: [{ id: a.user.id, name: 'Graph' }], user: { name: 'Graph' } } });
  });
});
