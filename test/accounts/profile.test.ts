import 'reflect-metadata';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';
import { insertIntent, ISO } from './helpers';

describe('account and profile', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  describe('GET /api/auth/me', () => {
    it('returns { user } with the account fields', async () => {
      const u = await createUser(app, { name: 'Ada' });
      const res = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(res.body).toEqual({
        user: {
          id: u.user.id,
          name: 'Ada',
          intro: '',
          avatar: '',
          location: '',
          socials: [],
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          email: u.user.email,
          walletAddress: null,
          timezone: '',
          notificationPreferences: { opportunity: true, morningBrief: true },
          profileConfirmedAt: null,
          onboardingCompletedAt: null,
        },
      });
    });

    it('401 without a credential', async () => {
      await app.http.get('/api/auth/me').expect(401);
    });
  });

  describe('PATCH /api/auth/profile/update', () => {
    it('changes only the sent fields and returns { user }', async () => {
      const u = await createUser(app, { name: 'Grace', intro: 'Compiler person' });
      const res = await app.http
        .patch('/api/auth/profile/update')
        .set(u.auth)
        .send({ location: 'Arlington, VA', timezone: 'America/New_York' })
        .expect(200);
      expect(res.body.user).toMatchObject({ id: u.user.id, name: 'Grace', intro: 'Compiler person', location: 'Arlington, VA', timezone: 'America/New_York' });
      const me = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(me.body.user).toEqual(res.body.user);
    });

    it('takes every documented field at once and trims text', async () => {
      const u = await createUser(app);
      const res = await app.http
        .patch('/api/auth/profile/update')
        .set(u.auth)
        .send({
          name: '  Ada Lovelace ',
          intro: 'Analyst of engines',
          location: 'London',
          timezone: 'Europe/London',
          avatar: 'https://cdn.example.test/ada.png',
          socials: [{ label: 'github', value: 'ada' }],
          notificationPreferences: { opportunity: false, morningBrief: false },
        })
        .expect(200);
      expect(res.body.user).toMatchObject({
        name: 'Ada Lovelace',
        intro: 'Analyst of engines',
        location: 'London',
        timezone: 'Europe/London',
        avatar: 'https://cdn.example.test/ada.png',
        socials: [{ label: 'github', value: 'ada' }],
        notificationPreferences: { opportunity: false, morningBrief: false },
      });
    });

    it('replaces every saved social link when socials is sent, and [] clears them', async () => {
      const u = await createUser(app);
      await app.http
        .patch('/api/auth/profile/update')
        .set(u.auth)
        .send({ socials: [{ label: 'x', value: '@a' }, { label: 'site', value: 'https://a.test' }] })
        .expect(200);
      const replaced = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ socials: [{ label: 'github', value: 'a' }] }).expect(200);
      expect(replaced.body.user.socials).toEqual([{ label: 'github', value: 'a' }]);
      const other = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ intro: 'hi' }).expect(200);
      expect(other.body.user.socials).toEqual([{ label: 'github', value: 'a' }]);
      const cleared = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ socials: [] }).expect(200);
      expect(cleared.body.user.socials).toEqual([]);
    });

    it('changes one notification preference and keeps the other', async () => {
      const u = await createUser(app);
      const res = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ notificationPreferences: { morningBrief: false } }).expect(200);
      expect(res.body.user.notificationPreferences).toEqual({ opportunity: true, morningBrief: false });
    });

    it('clears text fields with an empty string', async () => {
      const u = await createUser(app, { intro: 'something' });
      const res = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ intro: '', avatar: '' }).expect(200);
      expect(res.body.user).toMatchObject({ intro: '', avatar: '' });
    });

    it('works with an API key too', async () => {
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      const res = await app.http.patch('/api/auth/profile/update').set(headers).send({ location: 'Lisbon' }).expect(200);
      expect(res.body.user.location).toBe('Lisbon');
    });

    it.each([
      ['a number as name', { name: 42 }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
      ['an intro of 2001 characters', { intro: 'x'.repeat(2001) }, 'intro'],
      ['a location of 201 characters', { location: 'x'.repeat(201) }, 'location'],
      ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['a javascript: avatar', { avatar: 'javascript:alert(1)' }, 'avatar'],
      ['an avatar that is no URL', { avatar: 'not a url' }, 'avatar'],
      ['socials as a string', { socials: 'github' }, 'socials'],
      ['a social link without value', { socials: [{ label: 'github' }] }, 'socials.0.value'],
      ['a social link with an empty label', { socials: [{ label: '', value: 'a' }] }, 'socials.0.label'],
      ['21 social links', { socials: Array.from({ length: 21 }, (_, i) => ({ label: `l${i}`, value: 'v' })) }, 'socials'],
      ['a preference that is no boolean', { notificationPreferences: { opportunity: 'yes' } }, 'notificationPreferences.opportunity'],
      ['a null name', { name: null }, 'name'],
    ])('400 for %s', async (_what, body, path) => {
      const u = await createUser(app, { name: 'Keep' });
      const res = await app.http.patch('/api/auth/profile/update').set(u.auth).send(body).expect(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      const me = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(me.body.user.name).toBe('Keep');
    });

    it('400 when no documented field is sent', async () => {
      const u = await createUser(app);
      const res = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ displayName: 'x' }).expect(400);
      expect(res.body).toEqual({ error: 'invalid_request', details: [{ path: '', message: expect.stringContaining('Send at least one of name') }] });
    });

    it('400 when the body is not an object', async () => {
      const u = await createUser(app);
      await app.http.patch('/api/auth/profile/update').set(u.auth).set('content-type', 'application/json').send('[1]').expect(400);
    });

    it('401 without a credential', async () => {
      await app.http.patch('/api/auth/profile/update').send({ name: 'x' }).expect(401);
    });
  });

  describe('onboarding', () => {
    it('confirm-profile returns profileConfirmedAt and the user, and keeps the first time', async () => {
      const u = await createUser(app);
      const first = await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      expect(first.body).toEqual({ profileConfirmedAt: expect.stringMatching(ISO), user: expect.objectContaining({ id: u.user.id }) });
      expect(first.body.user.profileConfirmedAt).toBe(first.body.profileConfirmedAt);
      const again = await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      expect(again.body.profileConfirmedAt).toBe(first.body.profileConfirmedAt);
      const me = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(me.body.user.profileConfirmedAt).toBe(first.body.profileConfirmedAt);
    });

    it('complete is refused with 400 until the profile is confirmed, and stays incomplete', async () => {
      const u = await createUser(app);
      await insertIntent(app, u.user.id);
      const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({}).expect(400);
      expect(res.body).toEqual({ error: 'profile_not_confirmed', detail: expect.any(String) });
      expect((await app.http.get('/api/auth/me').set(u.auth)).body.user.onboardingCompletedAt).toBeNull();
      expect((await app.http.get('/api/agents/me').set(u.auth)).body.onboardingCompletedAt).toBeNull();
    });

    it('complete is refused with 400 without a first intent', async () => {
      const u = await createUser(app);
      await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({}).expect(400);
      expect(res.body).toEqual({ error: 'intent_required', detail: expect.any(String) });
      // An archived intent is not a first intent.
      await insertIntent(app, u.user.id, { archivedAt: new Date() });
      expect((await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({}).expect(400)).body.error).toBe('intent_required');
      expect((await app.http.get('/api/auth/me').set(u.auth)).body.user.onboardingCompletedAt).toBeNull();
    });

    it('completes with the oldest intent when none is named', async () => {
      const u = await createUser(app);
      const older = await insertIntent(app, u.user.id, { createdAt: new Date(Date.now() - 60_000) });
      await insertIntent(app, u.user.id);
      await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({}).expect(200);
      expect(res.body).toEqual({ completedAt: expect.stringMatching(ISO), intentId: older.id });
      const me = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(me.body.user.onboardingCompletedAt).toBe(res.body.completedAt);
      const seat = await app.http.get('/api/agents/me').set(u.auth).expect(200);
      expect(seat.body.onboardingCompletedAt).toBe(res.body.completedAt);
    });

    it('completes with the named intent, and a repeat returns the first completion', async () => {
      const u = await createUser(app);
      await insertIntent(app, u.user.id, { createdAt: new Date(Date.now() - 60_000) });
      const named = await insertIntent(app, u.user.id);
      await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      // A short id (the first 8 characters) names it as well as the full id.
      const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({ intentId: named.id.slice(0, 8) }).expect(200);
      expect(res.body).toEqual({ completedAt: expect.stringMatching(ISO), intentId: named.id });
      const again = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({}).expect(200);
      expect(again.body).toEqual(res.body);
      // Issue 18: once completed, an intentId given is still checked; any other id is refused.
      const other = await createUser(app);
      const theirs = await insertIntent(app, other.user.id);
      for (const intentId of [theirs.id, '00000000-0000-4000-8000-000000000000', 'abc']) {
        expect((await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({ intentId }).expect(400)).body.error).toBe('invalid_intent');
      }
      expect((await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({ intentId: named.id }).expect(200)).body).toEqual(res.body);
    });

    it("refuses another user's, an archived, an unknown or a malformed intentId with 400 invalid_intent", async () => {
      const u = await createUser(app);
      const other = await createUser(app);
      await insertIntent(app, u.user.id);
      const theirs = await insertIntent(app, other.user.id);
      const archived = await insertIntent(app, u.user.id, { archivedAt: new Date() });
      await app.http.post('/api/auth/onboarding/confirm-profile').set(u.auth).send({}).expect(200);
      for (const intentId of [theirs.id, theirs.id.slice(0, 8), archived.id, archived.id.slice(0, 8), '00000000-0000-4000-8000-000000000000', 'abc']) {
        const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({ intentId }).expect(400);
        expect(res.body).toEqual({ error: 'invalid_intent', detail: expect.any(String) });
      }
      expect((await app.http.get('/api/auth/me').set(u.auth)).body.user.onboardingCompletedAt).toBeNull();
    });

    it('400 for an intentId of the wrong type', async () => {
      const u = await createUser(app);
      const res = await app.http.post('/api/auth/onboarding/complete').set(u.auth).send({ intentId: { id: 1 } }).expect(400);
      expect(res.body.error).toBe('invalid_request');
    });

    it('401 without a credential', async () => {
      await app.http.post('/api/auth/onboarding/confirm-profile').send({}).expect(401);
      await app.http.post('/api/auth/onboarding/complete').send({}).expect(401);
    });
  });

  it('GET /api/auth/providers lists siwe, email and device with no credential', async () => {
    const res = await app.http.get('/api/auth/providers').expect(200);
    expect(res.body.providers.map((p: { id: string }) => p.id)).toEqual(['siwe', 'email', 'device']);
  });
});
