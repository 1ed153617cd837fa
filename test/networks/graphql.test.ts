import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, networkTestEnv, shareIntent } from './helpers';

describe('networks over GraphQL: the graph behind the routes', () => {
  let app: TestApp;
  let founder: TestUser;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    founder = await createFounder(app);
  });
  afterAll(() => app.close());

  const gql = (who: TestUser | null, query: string, variables: Record<string, unknown> = {}) => {
    const req = app.http.post('/graphql');
    if (who) req.set(who.auth);
    return req.send({ query, variables }).expect(200);
  };

  it('links a network to its owner, members (as users), intents (with their owners) and join requests', async () => {
    const n = await createNetwork(app, founder, { title: 'Graph', joinPolicy: 'invite_only' });
    const mia = await createUser(app, { name: 'Mia' });
    await addMember(app, n.id, founder, mia);
    const intentId = await shareIntent(app, mia.user.id, [n.id]);
    const asker = await createUser(app, { name: 'Asker' });
    await app.http.post(`/api/networks/${n.id}/join`).set(asker.auth).expect(200);

    const res = await gql(
      founder,
      `query($id: ID!) { network(id: $id) {
        title memberCount role owner { name }
        members(limit: 10) { members { id permissions user { name } } pagination { total } }
        intents { intents { id user { name } } }
        joinRequests { joinRequests { user { name } network { title } status } }
      } }`,
      { id: n.id },
    );
    expect(res.body).toEqual({
      data: {
        network: {
          title: 'Graph',
          memberCount: 2,
          role: 'owner',
          owner: { name: 'Fran Founder' },
          members: {
            members: [
              { id: founder.user.id, permissions: ['owner'], user: { name: 'Fran Founder' } },
              { id: mia.user.id, permissions: ['member'], user: { name: 'Mia' } },
            ],
            pagination: { total: 2 },
          },
          intents: { intents: [{ id: intentId, user: { name: 'Mia' } }] },
          joinRequests: { joinRequests: [{ user: { name: 'Asker' }, network: { title: 'Graph' }, status: 'pending' }] },
        },
      },
    });
  });

  it('refuses member-only fields to a non-member of a public network with FORBIDDEN, and to anonymous callers', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'anyone' });
    const outsider = await createUser(app);
    const res = await gql(outsider, `query($id: ID!) { network(id: $id) { title members { members { email } } } }`, { id: n.id });
    expect(res.body.errors[0]).toMatchObject({ message: 'forbidden', extensions: { code: 'FORBIDDEN' } });
    const anon = await gql(null, `query($id: ID!) { publicNetwork(id: $id) { title shareCode members { members { email } } } }`, { id: n.id });
    expect(anon.body.errors[0]).toMatchObject({ message: 'unauthorized', extensions: { code: 'UNAUTHENTICATED' } });
    const plain = await gql(null, `query($id: ID!) { publicNetwork(id: $id) { title role shareCode invitationCode } }`, { id: n.id });
    expect(plain.body.data.publicNetwork).toEqual({ title: 'Climate founders', role: null, shareCode: null, invitationCode: null });
  });

  it('links a network request to its requester and to the network its approval created', async () => {
    const reviewer = await createFounder(app, 1);
    const requester = await createUser(app, { name: 'Req' });
    const created = await gql(requester, `mutation { createNetworkRequest(input: { name: "Via GraphQL" }) { id title } }`);
    const id = created.body.data.createNetworkRequest.id;
    await gql(reviewer, `mutation($id: ID!) { approveNetworkRequest(id: $id) { request { status } } }`, { id });
    const res = await gql(requester, `{ myNetworkRequests { canReview requests { title requester { name } network { title role } } } }`);
    expect(res.body.data.myNetworkRequests).toEqual({
      canReview: false,
      requests: [{ title: 'Via GraphQL', requester: { name: 'Req' }, network: { title: 'Via GraphQL', role: 'owner' } }],
    });
  });
});
