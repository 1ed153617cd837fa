import { DEMO_NETWORK, DEMO_PEOPLE, seedDemo } from '../../src/cli/demo-seed';
import { createLogger } from '../../src/logger';
import { Mailer } from '../../src/mail/mailer';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

describe('npm run seed: the demo', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('loads people, a public network and their intents once; a second run adds nothing', async () => {
    const first = await seedDemo(app.services);
    const intentCount = DEMO_PEOPLE.reduce((n, p) => n + p.intents.length, 0);
    expect(first.created).toEqual({ users: DEMO_PEOPLE.length, networks: 1, intents: intentCount });
    const second = await seedDemo(app.services);
    expect(second.created).toEqual({ users: 0, networks: 0, intents: 0 });
    expect(second.networkId).toBe(first.networkId);
    expect(second.users).toEqual(first.users);

    const [network] = await app.withEm((em) => em.execute<Array<{ title: string; join_policy: string; members: string }>>(
      `select n.title, n.join_policy, (select count(*) from network_members m where m.network_id = n.id) as members from networks n where n.id = ?`,
      [first.networkId],
    ));
    expect(network).toEqual({ title: DEMO_NETWORK.title, join_policy: 'anyone', members: String(DEMO_PEOPLE.length) });
    const [{ ready }] = await app.withEm((em) =>
      em.execute<Array<{ ready: string }>>(`select count(*) as ready from intent_vectors v join intent_networks n on n.intent_id = v.intent_id where n.network_id = ? and v.state = 'ready'`, [first.networkId]),
    );
    expect(Number(ready)).toBe(intentCount);
  });

  it('gives a newcomer who joins the demo network real counterparts on the first discover', async () => {
    const { networkId, users } = await seedDemo(app.services);
    const newcomer = await createUser(app, { email: 'newcomer@example.com' });
    await app.http.post(`/api/networks/${networkId}/join`).set(newcomer.auth).expect(200);
    const { intentId } = (
      await app.http.post('/api/intents').set(newcomer.auth).send({ description: 'Raising a pre-seed round for a climate-tech startup in Berlin', networkIds: [networkId] }).expect(200)
    ).body;
    const found = await app.http.post(`/api/intents/${intentId}/discover`).set(newcomer.auth).send({ query: 'seed investor', limit: 10 }).expect(200);
    const statements = found.body.counterparties.map((c: { statement: string }) => c.statement);
    // Both investors are among them; the engineering gig and the engineer are not.
    expect(statements).toEqual(expect.arrayContaining([DEMO_PEOPLE[0].intents[0], DEMO_PEOPLE[1].intents[0]]));
    expect(statements).not.toContain(DEMO_PEOPLE[2].intents[1]);
    expect(statements).not.toContain(DEMO_PEOPLE[3].intents[0]);
    expect(found.body.counterparties.every((c: { userId: string }) => users.some((u) => u.id === c.userId))).toBe(true);
  });
});

describe('mail without SMTP_URL', () => {
  it('prints the sign-in code on a line of its own, beside the log line', async () => {
    const lines: string[] = [];
    const mailer = new Mailer(undefined, 'x <x@localhost>', createLogger('silent'), { out: (l) => lines.push(l) });
    await mailer.send({ to: 'ada@example.com', subject: 's', text: 'Your sign-in code is 123456', notice: 'Sign-in code for ada@example.com: 123456' });
    await mailer.send({ to: 'ada@example.com', subject: 'no notice', text: 'hello' });
    expect(lines).toEqual(['Sign-in code for ada@example.com: 123456']);
    const quiet: string[] = [];
    await new Mailer(undefined, 'x <x@localhost>', createLogger('silent'), { printNotices: false, out: (l) => quiet.push(l) }).send({ to: 'a@b.c', subject: 's', text: 't', notice: 'n' });
    expect(quiet).toEqual([]);
  });

  it('the email sign-in gives the code that notice', async () => {
    const app = await startTestApp();
    try {
      await app.http.post('/api/auth/email/start').send({ email: 'Notice@Example.com' }).expect(202);
      const mail = app.services.mailer.outbox.at(-1)!;
      const code = /\b(\d{6})\b/.exec(mail.text)![1];
      expect(mail.notice).toBe(`Sign-in code for notice@example.com: ${code}`);
    } finally {
      await app.close();
    }
  });
});
