import { Agent } from '../../src/entities/agent.entity';
import { User } from '../../src/entities/user.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, networkTestEnv, uniqueEmail, UUID, UNKNOWN } from './helpers';

describe('networks: invitations', () => {
  let app: TestApp;
  let founder: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ ...networkTestEnv, WEB_APP_URL: 'https://app.example.test/' });
    founder = await createFounder(app);
  });
  afterAll(() => app.close());

  const outbox = () => app.services.mailer.outbox;
  const memberIds = async (networkId: string) =>
    (await app.http.get(`/api/networks/${networkId}/members`).set(founder.auth).expect(200)).body.members.map((m: { id: string }) => m.id);

  describe('POST /api/networks/:id/members/invite', () => {
    it('adds an existing account and emails it a sign-in link', async () => {
      const n = await createNetwork(app, founder, { title: 'Climate founders', joinPolicy: 'invite_only' });
      const u = await createUser(app);
      const before = outbox().length;
      const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email: u.user.email!.toUpperCase() }).expect(200);
      expect(res.body).toEqual({ user: { id: u.user.id, email: u.user.email }, created: false, alreadyMember: false });
      expect(await memberIds(n.id)).toContain(u.user.id);
      expect(outbox().length).toBe(before + 1);
      const mail = outbox().at(-1)!;
      expect(mail).toMatchObject({ to: u.user.email, subject: 'You were added to "Climate founders"' });
      expect(mail.text).toContain('Fran Founder added you to the network "Climate founders"');
      expect(mail.text).toContain(`https://app.example.test/sign-in?email=${encodeURIComponent(u.user.email!)}&next=${encodeURIComponent(`/networks/${n.id}`)}`);
    });

    it('creates an invited account (with its hosted negotiator) for an unknown address and mails it', async () => {
      const n = await createNetwork(app, founder, { title: 'Builders' });
      const email = uniqueEmail('New.Person');
      const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email: `  ${email}  `, name: 'Nova' }).expect(200);
      expect(res.body).toEqual({ user: { id: UUID, email: email.toLowerCase() }, created: true, alreadyMember: false });
      const { user, agents } = await app.withEm(async (em) => ({
        user: await em.findOneOrFail(User, { id: res.body.user.id }),
        agents: await em.find(Agent, { ownerId: res.body.user.id }),
      }));
      expect(user).toMatchObject({ email: email.toLowerCase(), name: 'Nova', state: 'invited' });
      expect(agents.map((a) => a.type)).toEqual(['system']);
      expect(await memberIds(n.id)).toContain(user.id);
      const mail = outbox().at(-1)!;
      expect(mail).toMatchObject({ to: email.toLowerCase(), subject: 'Fran Founder invited you to "Builders"' });
      expect(mail.text).toContain(`/sign-in?email=${encodeURIComponent(email.toLowerCase())}`);
    });

    it('reports an existing member as alreadyMember and changes nothing (an invited account gets the mail again)', async () => {
      const n = await createNetwork(app, founder);
      const u = await createUser(app);
      await addMember(app, n.id, founder, u);
      const before = outbox().length;
      const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email: u.user.email }).expect(200);
      expect(res.body).toEqual({ user: { id: u.user.id, email: u.user.email }, created: false, alreadyMember: true });
      expect(outbox().length).toBe(before);

      const email = uniqueEmail('pending');
      await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email }).expect(200);
      const again = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email }).expect(200);
      expect(again.body).toMatchObject({ created: false, alreadyMember: true });
      expect(outbox().slice(before).map((m) => m.to)).toEqual([email, email]);
    });

    it('owners only: members and non-members get 403 and no account is created; 404 unknown network; 401 anonymous', async () => {
      const n = await createNetwork(app, founder);
      const member = await createUser(app);
      await addMember(app, n.id, founder, member);
      const outsider = await createUser(app);
      const email = uniqueEmail('nobody');
      for (const who of [member, outsider]) {
        const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(who.auth).send({ email }).expect(403);
        expect(res.body.error).toBe('forbidden');
      }
      await app.http.post(`/api/networks/${UNKNOWN}/members/invite`).set(founder.auth).send({ email }).expect(404);
      await app.http.post(`/api/networks/${n.id}/members/invite`).send({ email }).expect(401);
      expect(await app.withEm((em) => em.count(User, { email }))).toBe(0);
    });

    it.each([[{}], [{ email: 'not-an-email' }], [{ email: 42 }], [{ email: 'a@b.co', name: 'x'.repeat(201) }]])('answers 400 for %j', async (body) => {
      const n = await createNetwork(app, founder);
      const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send(body).expect(400);
      expect(res.body.error).toBe('invalid_request');
    });
  });

  describe('POST /api/networks/invitation/:code/accept', () => {
    it('lets a holder of the link join an invite_only network, once per person', async () => {
      const n = await createNetwork(app, founder, { title: 'Inner circle', joinPolicy: 'invite_only' });
      const u = await createUser(app);
      const res = await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(u.auth).expect(200);
      expect(res.body).toEqual({
        network: expect.objectContaining({ id: n.id, title: 'Inner circle', role: 'member', memberCount: 2, invitationCode: null, shareCode: n.shareCode }),
        alreadyMember: false,
      });
      const again = await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(u.auth).expect(200);
      expect(again.body).toMatchObject({ alreadyMember: true, network: { memberCount: 2 } });

      await app.http.post(`/api/networks/${n.id}/leave`).set(u.auth).expect(200);
      const reuse = await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(u.auth).expect(409);
      expect(reuse.body).toEqual({ error: 'invitation_used', detail: 'You already joined through this invitation link; ask an owner to add you again' });
      expect(await memberIds(n.id)).toEqual([founder.user.id]);
      // An owner can still bring them back.
      await addMember(app, n.id, founder, u);
    });

    it('a member who never used the link is reported alreadyMember; a pending join request is settled', async () => {
      const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
      const u = await createUser(app);
      await addMember(app, n.id, founder, u);
      expect((await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(u.auth).expect(200)).body.alreadyMember).toBe(true);

      const r = await createUser(app);
      await app.http.post(`/api/networks/${n.id}/join`).set(r.auth).expect(200);
      await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(r.auth).expect(200);
      const pending = await app.http.get(`/api/networks/${n.id}/join-requests`).set(founder.auth).expect(200);
      expect(pending.body.joinRequests).toEqual([]);
    });

    it('answers 404 for an unknown code or the share code, 401 without a credential; deleting the network revokes the link', async () => {
      const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
      const u = await createUser(app);
      await app.http.post('/api/networks/invitation/nope/accept').set(u.auth).expect(404);
      await app.http.post(`/api/networks/invitation/${n.shareCode}/accept`).set(u.auth).expect(404);
      await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).expect(401);
      await app.http.delete(`/api/networks/${n.id}`).set(founder.auth).expect(200);
      const res = await app.http.post(`/api/networks/invitation/${n.invitationCode}/accept`).set(u.auth).expect(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'Invitation not found' });
    });
  });
});

describe('networks: invitation mail without a web client, and mail failures', () => {
  let app: TestApp;
  let founder: TestUser;
  beforeAll(async () => {
    // A mail server that refuses connections: sending fails for real.
    app = await startTestApp({ ...networkTestEnv, SMTP_URL: 'smtp://127.0.0.1:1' });
    founder = await createFounder(app);
  });
  afterAll(() => app.close());

  it('links to the web app this service serves when no WEB_APP_URL names another, and explains the API sign-in too', async () => {
    const n = await createNetwork(app, founder, { title: 'No web client' });
    const email = uniqueEmail('api-only');
    await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email }).expect(503);
    const mail = app.services.mailer.outbox.at(-1)!;
    expect(mail.to).toBe(email.toLowerCase());
    expect(mail.text).toContain(`http://localhost:3001/sign-in?email=${encodeURIComponent(email.toLowerCase())}&next=${encodeURIComponent(`/networks/${n.id}`)}`);
    expect(mail.text).toContain(`POST http://localhost:3001/api/auth/email/start with {"email": "${email.toLowerCase()}"}`);
    expect(mail.text).toContain(`http://localhost:3001/api/networks/${n.id}`);
  });

  it('answers 503 mail_failed while keeping the membership, so inviting again resends', async () => {
    const n = await createNetwork(app, founder);
    const email = uniqueEmail('unreachable');
    const res = await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email }).expect(503);
    expect(res.body).toEqual({
      error: 'mail_failed',
      detail: 'The member was added but the invitation email could not be sent; invite again to resend it',
      retryable: true,
    });
    const members = await app.http.get(`/api/networks/${n.id}/members`).set(founder.auth).expect(200);
    expect(members.body.members.map((m: { email: string }) => m.email)).toContain(email);
    // The account has not signed in yet, so a second invite tries the mail again.
    await app.http.post(`/api/networks/${n.id}/members/invite`).set(founder.auth).send({ email }).expect(503);
  });
});
