import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';

// Counts the applications of the credential rule, wherever the service applies it from.
jest.mock('../../src/domain/access/credential', () => {
  const actual = jest.requireActual('../../src/domain/access/credential');
  return { ...actual, checkCredential: jest.fn(actual.checkCredential) };
});
const { checkCredential } = jest.requireMock<{ checkCredential: jest.Mock }>('../../src/domain/access/credential');

let app: TestApp;
let ada: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  ada = await createUser(app);
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => checkCredential.mockClear());

describe('the credential is checked once per request', () => {
  it('over REST: by the route guard, which GraphQL execution in process then trusts', async () => {
    const res = await app.http.get('/api/agents').set(ada.auth);
    expect(res.status).toBe(200);
    expect(checkCredential).toHaveBeenCalledTimes(1);
  });

  it('over REST without a credential: refused by the guard, before the operation runs', async () => {
    const res = await app.http.get('/api/agents');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized', detail: 'A valid session or API key is required' });
    expect(checkCredential).toHaveBeenCalledTimes(1);
  });

  it('over REST with an API key on a session-only route: refused 403 by the guard alone', async () => {
    const { headers } = await createApiKey(app, ada.user.id);
    checkCredential.mockClear();
    const res = await app.http.get('/api/auth/devices').set(headers);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', detail: 'This route needs a signed-in session; an API key cannot use it' });
    expect(checkCredential).toHaveBeenCalledTimes(1);
  });

  it('over GraphQL: by @Authorized, for each guarded root field', async () => {
    const res = await app.http.post('/graphql').set(ada.auth).send({ query: '{ me { id } }' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.me.id).toBe(ada.user.id);
    expect(checkCredential).toHaveBeenCalledTimes(1);
  });

  it('over GraphQL without a credential: refused by @Authorized with the same 401', async () => {
    const res = await app.http.post('/graphql').send({ query: '{ me { id } }' });
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(checkCredential).toHaveBeenCalledTimes(1);
  });
});
