import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createNetwork } from '../intents/network-factory';

describe('GraphQL edges between areas', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('links an intent to its networks, and a counterparty to the shared network', async () => {
    const founder = await createUser(app, { name: 'Founder' });
    const investor = await createUser(app, { name: 'Investor' });
    const net = await createNetwork(app, [founder.user.id, investor.user.id], 'Fintech Builders');
    const mine = await app.http
      .post('/api/intents')
      .set(founder.auth)
      .send({ description: 'Raising a €1M seed round for a savings app for gig workers in Poland; looking for seed investors in CEE fintech.' })
      .expect(200);
    await app.http
      .post('/api/intents')
      .set(investor.auth)
      .send({ description: 'Seed investor backing CEE fintech teams at their first round, tickets €250k–1M.' })
      .expect(200);

    const res = await app.http
      .post('/graphql')
      .set(founder.auth)
      .send({
        query: `query($id: ID!) {
          intents { intents { id networks { id title role memberCount } } }
          discoverCounterparties(intentId: $id, input: { query: "" }) { userId network { id title } }
        }`,
        variables: { id: mine.body.intentId },
      })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.intents.intents).toEqual([{ id: mine.body.intentId, networks: [{ id: net.id, title: 'Fintech Builders', role: 'owner', memberCount: 2 }] }]);
    expect(res.body.data.discoverCounterparties).toEqual([{ userId: investor.user.id, network: { id: net.id, title: 'Fintech Builders' } }]);
  });
});
