import 'reflect-metadata';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/**
 * Error bodies quote at most a short piece of a value they refuse (issue 18, finding 6): a
 * 500 kB string in an enum field used to come back twice, as a 1 MB error.
 */
describe('error bodies and the values they refuse', () => {
  let app: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ EARLY_ACCESS: 'echo@example.com' });
    ada = await createUser(app, { email: 'echo@example.com' });
  });
  afterAll(() => app.close());

  const huge = 'x'.repeat(500_000);

  it('does not echo the refused value on REST', async () => {
    const res = await app.http.post('/api/networks').set(ada.auth).send({ title: 'Echo', joinPolicy: huge });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
    // The route's schema refuses it first, in REST words, naming the allowed values only.
    expect(res.body.details[0]).toEqual({ path: 'joinPolicy', message: 'must be one of: anyone, invite_only' });
    expect(JSON.stringify(res.body)).not.toContain('x'.repeat(65));
  });

  it('caps the echoed value on GraphQL', async () => {
    const res = await app.http
      .post('/graphql')
      .set(ada.auth)
      .send({ query: 'mutation($input: CreateNetworkInput!) { createNetwork(input: $input) { id } }', variables: { input: { title: 'Echo', joinPolicy: huge } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
    expect(res.body.errors[0].message).toContain(`"${'x'.repeat(64)}…"`);
  });

  it('does not echo a long unknown path whole', async () => {
    const path = `/api/${'p'.repeat(12_000)}`;
    const res = await app.http.get(path).set(ada.auth);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    expect(res.body.detail.startsWith(`No route GET /api/${'p'.repeat(100)}`)).toBe(true);
    expect(JSON.stringify(res.body).length).toBeLessThan(1_100);
  });
});
