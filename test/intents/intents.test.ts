import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { addMember, createNetwork, framesOf } from './network-factory';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('intents', () => {
  let app: TestApp;
  let changed: string[][];
  beforeAll(async () => {
    app = await startTestApp();
    changed = [];
    app.services.hooks.on('intents.changed', ({ intentIds }) => {
      changed.push(intentIds);
    });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    changed.length = 0;
  });

  const create = (u: TestUser, body: Record<string, unknown>) => app.http.post('/api/intents').set(u.auth).send(body);

  describe('POST /api/intents', () => {
    it('shares into every network of the caller when networkIds is omitted or empty, and writes intent.created', async () => {
      const u = await createUser(app);
      const other = await createUser(app);
      const n1 = await createNetwork(app, [u.user.id]);
      const n2 = await createNetwork(app, [other.user.id, u.user.id]);
      await createNetwork(app, [other.user.id]);

      const res = await create(u, { description: 'Looking for a pixel artist for character sprites in a metroidvania, paid per sheet.' }).expect(200);
      expect(res.body).toEqual({ intentId: expect.stringMatching(UUID), networkIds: expect.any(Array), sourceType: null, sourceId: null });
      // Shares made in one request carry one time, so they are listed by network id.
      expect(res.body.networkIds).toEqual([n1.id, n2.id].sort());
      // A new intent is indexed by its own transaction's row, not through the hook (docs/adr/0107).
      expect(changed).toEqual([]);
      for (const n of [n1, n2]) expect(await app.services.vectorIndex.idsInNetwork(n.id)).toContain(res.body.intentId);

      const empty = await create(u, { description: 'Offering Rust code reviews for open-source tokenizer projects.', networkIds: [] }).expect(200);
      expect(empty.body.networkIds).toEqual([n1.id, n2.id].sort());

      const frames = await framesOf(app, u.user.id);
      expect(frames.map((f) => [f.type, f.data])).toEqual([
        ['intent.created', { intentId: res.body.intentId }],
        ['intent.created', { intentId: empty.body.intentId }],
      ]);
      expect(frames[0]).toMatchObject({ id: expect.stringMatching(UUID), title: 'Intent created', body: expect.stringContaining('pixel artist') });
    });

    it('shares only into the networks named, and keeps the source fields as sent', async () => {
      const u = await createUser(app);
      const n1 = await createNetwork(app, [u.user.id]);
      await createNetwork(app, [u.user.id]);
      const res = await create(u, {
        description: 'Hiring a Unity gameplay programmer in Lyon, hybrid.',
        networkIds: [n1.id, n1.id.toUpperCase()],
        sourceType: 'crm',
        sourceId: 'lead/42 ✓',
      }).expect(200);
      expect(res.body).toEqual({ intentId: expect.stringMatching(UUID), networkIds: [n1.id], sourceType: 'crm', sourceId: 'lead/42 ✓' });
    });

    it('answers 403 network_membership_required for a network the caller is not in, and saves nothing', async () => {
      const u = await createUser(app);
      const other = await createUser(app);
      const mine = await createNetwork(app, [u.user.id]);
      const theirs = await createNetwork(app, [other.user.id]);
      const res = await create(u, { description: 'Looking for a drummer for a post-punk band in East Austin.', networkIds: [mine.id, theirs.id] }).expect(403);
      expect(res.body).toEqual({
        error: 'forbidden',
        code: 'network_membership_required',
        detail: `You are not a member of network ${theirs.id}`,
        networkId: theirs.id,
      });
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await create(u, { description: 'Looking for a drummer in Austin.', networkIds: [unknown] }).expect(403)).body.networkId).toBe(unknown);
      const list = await app.http.post('/api/intents/list').set(u.auth).send({}).expect(200);
      expect(list.body.intents).toEqual([]);
      expect(changed).toEqual([]);
      // The write carries the check (ADR 0128): a refused statement leaves no frame and no index entry.
      expect(await framesOf(app, u.user.id)).toEqual([]);
      expect(await app.services.vectorIndex.idsInNetwork(mine.id)).toEqual([]);
      // Membership is decided before the text: a text or receipt that would be refused still answers 403.
      for (const body of [
        { description: 'The weather is lovely today.', networkIds: [theirs.id] },
        { description: 'Looking for a drummer in Austin.', preparationReceipt: 'not-a-receipt', networkIds: [theirs.id] },
      ]) {
        expect((await create(u, body).expect(403)).body).toMatchObject({ code: 'network_membership_required', networkId: theirs.id });
      }
    });

    it('refuses bad input with 400 and names the field', async () => {
      const u = await createUser(app);
      const bad = async (body: unknown, path: string) => {
        const res = await app.http.post('/api/intents').set(u.auth).send(body as object).expect(400);
        expect(res.body.error).toBe('invalid_request');
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      };
      await bad({}, 'description');
      await bad({ description: 42 }, 'description');
      await bad({ description: 'Looking for a cofounder for a fintech startup.', networkIds: ['not-a-uuid'] }, 'networkIds.0');
      await bad({ description: 'Looking for a cofounder for a fintech startup.', sourceType: 'x'.repeat(1025) }, 'sourceType');
      await bad({ description: 'Looking for a cofounder for a fintech startup.', sourceId: 'x'.repeat(1025) }, 'sourceId');
      await bad({ description: 'x'.repeat(10_001) }, 'description');
      const atLimit = await create(u, { description: 'Looking for a cofounder for a fintech startup.', sourceType: 't'.repeat(1024), sourceId: 'i'.repeat(1024) }).expect(200);
      expect(atLimit.body.sourceId).toHaveLength(1024);
    });

    it('refuses drafts that cannot be admitted with 422 intent_rejected', async () => {
      const u = await createUser(app);
      const rejected = async (description: string, reason: string) => {
        const res = await create(u, { description }).expect(422);
        expect(res.body).toEqual({ error: 'intent_rejected', code: 'intent_rejected', reason, detail: expect.any(String) });
      };
      await rejected('', 'empty');
      await rejected('   \n\t ', 'empty');
      await rejected('The weather is lovely today.', 'no_intent');
      await rejected('Looking for a cofounder, you are an idiot', 'abusive');
      const list = await app.http.post('/api/intents/list').set(u.auth).send({}).expect(200);
      expect(list.body.pagination.total).toBe(0);
    });

    it('admits a vague draft: vagueness only holds back prepare', async () => {
      const u = await createUser(app);
      const res = await create(u, { description: 'Looking for help' }).expect(200);
      const got = await app.http.get(`/api/intents/${res.body.intentId}`).set(u.auth).expect(200);
      expect(got.body.intent.payload).toBe('Looking for help');
    });

    it('needs a credential, and works with an API key', async () => {
      await app.http.post('/api/intents').send({ description: 'Looking for a room in Austin.' }).expect(401);
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      await app.http.post('/api/intents').set(headers).send({ description: 'Looking for a room in Austin from June.' }).expect(200);
    });
  });

  describe('GET /api/intents/:id', () => {
    it('returns the intent with userId and a summary, by uuid or short id', async () => {
      const u = await createUser(app);
      const { body } = await create(u, {
        description: 'Hey!\nWe are a 3-person studio in Montréal. We are looking for a publisher to help with console ports.',
        sourceType: 'import',
      }).expect(200);
      const res = await app.http.get(`/api/intents/${body.intentId}`).set(u.auth).expect(200);
      expect(res.body).toEqual({
        intent: {
          id: body.intentId,
          payload: 'Hey!\nWe are a 3-person studio in Montréal. We are looking for a publisher to help with console ports.',
          summary: 'We are a 3-person studio in Montréal. We are looking for a publisher to help with console ports.',
          status: 'active',
          sourceType: 'import',
          sourceId: null,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          archivedAt: null,
          userId: u.user.id,
        },
      });
      const short = body.intentId.slice(0, 8);
      expect((await app.http.get(`/api/intents/${short}`).set(u.auth).expect(200)).body.intent.id).toBe(body.intentId);
      expect((await app.http.get(`/api/intents/${short.toUpperCase()}`).set(u.auth).expect(200)).body.intent.id).toBe(body.intentId);
    });

    it("answers 404 for another user's intent, by uuid and by short id, and for ids that do not resolve", async () => {
      const owner = await createUser(app);
      const stranger = await createUser(app);
      const { body } = await create(owner, { description: 'Offering mentorship to new engineering managers.' }).expect(200);
      const res = await app.http.get(`/api/intents/${body.intentId}`).set(stranger.auth).expect(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'Intent not found' });
      await app.http.get(`/api/intents/${body.intentId.slice(0, 8)}`).set(stranger.auth).expect(404);
      await app.http.get('/api/intents/00000000-0000-4000-8000-000000000000').set(owner.auth).expect(404);
      await app.http.get('/api/intents/nonsense').set(owner.auth).expect(404);
      await app.http.get('/api/intents/1234567').set(owner.auth).expect(404);
    });

    it('answers 409 ambiguous_id when a short id matches two of the caller\'s intents', async () => {
      const u = await createUser(app);
      const a = 'abcdef12-0000-4000-8000-000000000001';
      const b = 'abcdef12-0000-4000-8000-000000000002';
      await app.withEm(async (em) => {
        await em.execute(
          `insert into intents (id, user_id, payload, summary, status, created_at, updated_at) values (?, ?, 'Looking for a tennis partner', '', 'active', now(), now()), (?, ?, 'Looking for a squash partner', '', 'active', now(), now())`,
          [a, u.user.id, b, u.user.id],
        );
      });
      const res = await app.http.get('/api/intents/abcdef12').set(u.auth).expect(409);
      expect(res.body).toEqual({ error: 'ambiguous_id', detail: expect.stringContaining('abcdef12'), candidates: [a, b] });
      expect((await app.http.get(`/api/intents/${a}`).set(u.auth).expect(200)).body.intent.id).toBe(a);
      // Another user's intent with the same prefix does not make the caller's ambiguous.
      const other = await createUser(app);
      await app.withEm((em) =>
        em.execute(`insert into intents (id, user_id, payload, summary, status, created_at, updated_at) values ('fedcba98-0000-4000-8000-000000000001', ?, 'x', '', 'active', now(), now())`, [other.user.id]),
      );
      await app.withEm((em) =>
        em.execute(`insert into intents (id, user_id, payload, summary, status, created_at, updated_at) values ('fedcba98-0000-4000-8000-000000000002', ?, 'y', '', 'active', now(), now())`, [u.user.id]),
      );
      expect((await app.http.get('/api/intents/fedcba98').set(u.auth).expect(200)).body.intent.id).toBe('fedcba98-0000-4000-8000-000000000002');
    });
  });

  describe('POST /api/intents/list', () => {
    let u: TestUser;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      u = await createUser(app);
      const other = await createUser(app);
      const texts: Array<[string, string, string | null]> = [
        ['room', 'Looking for a room in East Austin from June, budget $1000.', 'web'],
        ['drummer', 'Post-punk band looking for a DRUMMER, rehearsals on Tuesdays in Austin.', 'web'],
        ['percent', 'Offering 100% remote code reviews for Rust projects.', 'cli'],
        ['mentor', 'Happy to mentor first-time founders on sales.', null],
      ];
      for (const [key, description, sourceType] of texts) {
        ids[key] = (await create(u, { description, sourceType }).expect(200)).body.intentId;
      }
      await app.http.patch(`/api/intents/${ids.mentor}/archive`).set(u.auth).expect(200);
      await create(other, { description: 'Looking for a drummer in Brooklyn.' }).expect(200);
    });

    it('lists the caller\'s live intents, newest first, with pagination', async () => {
      const res = await app.http.post('/api/intents/list').set(u.auth).send({}).expect(200);
      expect(res.body.intents.map((i: { id: string }) => i.id)).toEqual([ids.percent, ids.drummer, ids.room]);
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
      expect(Object.keys(res.body.intents[0]).sort()).toEqual(
        ['archivedAt', 'createdAt', 'id', 'payload', 'sourceId', 'sourceType', 'status', 'summary', 'updatedAt'].sort(),
      );
    });

    it('includes archived intents when archived is true', async () => {
      const res = await app.http.post('/api/intents/list').set(u.auth).send({ archived: true }).expect(200);
      expect(res.body.intents.map((i: { id: string }) => i.id)).toEqual([ids.mentor, ids.percent, ids.drummer, ids.room]);
      expect(res.body.intents[0].archivedAt).toMatch(ISO);
    });

    it('matches q case-insensitively over description and summary, literally', async () => {
      const q = async (text: string, extra: Record<string, unknown> = {}) =>
        (await app.http.post('/api/intents/list').set(u.auth).send({ q: text, ...extra }).expect(200)).body.intents.map((i: { id: string }) => i.id);
      expect(await q('drummer')).toEqual([ids.drummer]);
      expect(await q('AUSTIN')).toEqual([ids.drummer, ids.room]);
      expect(await q('100%')).toEqual([ids.percent]);
      expect(await q('%')).toEqual([ids.percent]);
      expect(await q('_')).toEqual([]);
      expect(await q('founders')).toEqual([]);
      expect(await q('founders', { archived: true })).toEqual([ids.mentor]);
      expect(await q('   ')).toHaveLength(3);
      await app.withEm((em) => em.execute(`update intents set summary = 'Seeks a percussionist' where id = ?`, [ids.drummer]));
      expect(await q('percussionist')).toEqual([ids.drummer]);
    });

    it('keeps only an exact sourceType', async () => {
      const ofType = async (sourceType: string) =>
        (await app.http.post('/api/intents/list').set(u.auth).send({ sourceType }).expect(200)).body.intents.map((i: { id: string }) => i.id);
      expect(await ofType('web')).toEqual([ids.drummer, ids.room]);
      expect(await ofType('WEB')).toEqual([]);
      expect(await ofType('we')).toEqual([]);
      expect(await ofType('cli')).toEqual([ids.percent]);
    });

    it('pages', async () => {
      const p1 = await app.http.post('/api/intents/list').set(u.auth).send({ limit: 2, page: 1 }).expect(200);
      const p2 = await app.http.post('/api/intents/list').set(u.auth).send({ limit: 2, page: 2 }).expect(200);
      const p3 = await app.http.post('/api/intents/list').set(u.auth).send({ limit: 2, page: 3 }).expect(200);
      expect(p1.body.intents.map((i: { id: string }) => i.id)).toEqual([ids.percent, ids.drummer]);
      expect(p2.body.intents.map((i: { id: string }) => i.id)).toEqual([ids.room]);
      expect(p3.body.intents).toEqual([]);
      expect(p2.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    });

    it('refuses bad paging and types with 400', async () => {
      for (const body of [{ limit: 0 }, { limit: 101 }, { page: 0 }, { limit: 'ten' }, { archived: 'yes' }, { q: 5 }]) {
        const res = await app.http.post('/api/intents/list').set(u.auth).send(body).expect(400);
        expect(res.body.error).toBe('invalid_request');
        expect(res.body.details[0].path).toBe(Object.keys(body)[0]);
      }
    });
  });

  describe('PATCH /api/intents/:id', () => {
    it('writes a source-only change as sent, keeps omitted fields and clears with null', async () => {
      const u = await createUser(app);
      const { body } = await create(u, { description: 'Looking for a mixing engineer for shoegaze songs, remote.', sourceType: 'a', sourceId: 'b' }).expect(200);
      const before = (await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent;

      const onlyType = await app.http.patch(`/api/intents/${body.intentId.slice(0, 8)}`).set(u.auth).send({ sourceType: 'crm' }).expect(200);
      expect(onlyType.body).toEqual({ intentId: body.intentId, description: before.payload, sourceType: 'crm', sourceId: 'b' });
      const cleared = await app.http.patch(`/api/intents/${body.intentId}`).set(u.auth).send({ sourceId: null }).expect(200);
      expect(cleared.body).toEqual({ intentId: body.intentId, description: before.payload, sourceType: 'crm', sourceId: null });
      const after = (await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent;
      expect(after.summary).toBe(before.summary);
      expect(changed).toEqual([[body.intentId], [body.intentId]]);
    });

    it('prepares a new description again and writes a new summary', async () => {
      const u = await createUser(app);
      const { body } = await create(u, { description: 'Looking for a mixing engineer for shoegaze songs, remote.' }).expect(200);
      const res = await app.http
        .patch(`/api/intents/${body.intentId}`)
        .set(u.auth)
        .send({ description: '  Looking for a mastering engineer for a folk EP, remote is fine.  ' })
        .expect(200);
      expect(res.body).toEqual({ intentId: body.intentId, description: 'Looking for a mastering engineer for a folk EP, remote is fine.', sourceType: null, sourceId: null });
      const got = (await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent;
      expect(got.summary).toBe('Looking for a mastering engineer for a folk EP, remote is fine.');

      const refused = await app.http.patch(`/api/intents/${body.intentId}`).set(u.auth).send({ description: 'The weather is lovely today.', sourceType: 'x' }).expect(422);
      expect(refused.body).toMatchObject({ error: 'intent_rejected', code: 'intent_rejected', reason: 'no_intent' });
      const unchanged = (await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent;
      expect(unchanged).toMatchObject({ payload: got.payload, sourceType: null });
    });

    it('refuses an empty update, a null description, over-long sources; 404 for another user', async () => {
      const u = await createUser(app);
      const stranger = await createUser(app);
      const { body } = await create(u, { description: 'Looking for a mixing engineer for shoegaze songs, remote.' }).expect(200);
      expect((await app.http.patch(`/api/intents/${body.intentId}`).set(u.auth).send({}).expect(400)).body.error).toBe('invalid_request');
      expect((await app.http.patch(`/api/intents/${body.intentId}`).set(u.auth).send({ description: null }).expect(400)).body.details[0].path).toBe('description');
      expect((await app.http.patch(`/api/intents/${body.intentId}`).set(u.auth).send({ sourceId: 'x'.repeat(1025) }).expect(400)).body.details[0].path).toBe('sourceId');
      await app.http.patch(`/api/intents/${body.intentId}`).set(stranger.auth).send({ sourceType: 'mine now' }).expect(404);
      expect((await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent.sourceType).toBeNull();
    });
  });

  describe('status and archive', () => {
    it('pauses and resumes with intent.lifecycle frames; the same status again changes nothing', async () => {
      const u = await createUser(app);
      const { body } = await create(u, { description: 'Offering a spare room in East Austin, $900/mo, from June.' }).expect(200);
      changed.length = 0;
      const paused = await app.http.patch(`/api/intents/${body.intentId}/status`).set(u.auth).send({ status: 'paused' }).expect(200);
      expect(paused.body.intent).toMatchObject({ id: body.intentId, status: 'paused', archivedAt: null, userId: u.user.id });
      await app.http.patch(`/api/intents/${body.intentId}/status`).set(u.auth).send({ status: 'paused' }).expect(200);
      const active = await app.http.patch(`/api/intents/${body.intentId.slice(0, 8)}/status`).set(u.auth).send({ status: 'active' }).expect(200);
      expect(active.body.intent.status).toBe('active');
      const frames = (await framesOf(app, u.user.id)).filter((f) => f.type === 'intent.lifecycle');
      expect(frames.map((f) => [f.title, f.data])).toEqual([
        ['Intent paused', { intentId: body.intentId, status: 'paused' }],
        ['Intent resumed', { intentId: body.intentId, status: 'active' }],
      ]);
      expect(changed).toEqual([[body.intentId], [body.intentId]]);
    });

    it('archives keeping the status, then refuses status changes with 409', async () => {
      const u = await createUser(app);
      const { body } = await create(u, { description: 'Offering a spare room in East Austin, $900/mo, from June.' }).expect(200);
      await app.http.patch(`/api/intents/${body.intentId}/status`).set(u.auth).send({ status: 'paused' }).expect(200);
      const archived = await app.http.patch(`/api/intents/${body.intentId}/archive`).set(u.auth).expect(200);
      expect(archived.body.intent).toMatchObject({ id: body.intentId, status: 'paused', archivedAt: expect.stringMatching(ISO) });
      const again = await app.http.patch(`/api/intents/${body.intentId}/archive`).set(u.auth).expect(200);
      expect(again.body.intent.archivedAt).toBe(archived.body.intent.archivedAt);

      const refused = await app.http.patch(`/api/intents/${body.intentId}/status`).set(u.auth).send({ status: 'active' }).expect(409);
      expect(refused.body).toEqual({ error: 'intent_archived', detail: 'This intent is archived; its status can no longer change' });
      const lifecycle = (await framesOf(app, u.user.id)).filter((f) => f.type === 'intent.lifecycle').map((f) => f.data.status);
      expect(lifecycle).toEqual(['paused', 'archived']);
      expect((await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent.status).toBe('paused');
    });

    it('refuses an unknown status with 400 and another user\'s intent with 404', async () => {
      const u = await createUser(app);
      const stranger = await createUser(app);
      const { body } = await create(u, { description: 'Offering a spare room in East Austin, $900/mo, from June.' }).expect(200);
      for (const status of ['archived', 'ACTIVE', '', undefined]) {
        const res = await app.http.patch(`/api/intents/${body.intentId}/status`).set(u.auth).send({ status }).expect(400);
        expect(res.body.error).toBe('invalid_request');
      }
      await app.http.patch(`/api/intents/${body.intentId}/status`).set(stranger.auth).send({ status: 'paused' }).expect(404);
      await app.http.patch(`/api/intents/${body.intentId}/archive`).set(stranger.auth).expect(404);
      expect((await app.http.get(`/api/intents/${body.intentId}`).set(u.auth)).body.intent).toMatchObject({ status: 'active', archivedAt: null });
    });
  });

  describe('networks of an intent', () => {
    it('lists, shares and unshares', async () => {
      const u = await createUser(app);
      const n1 = await createNetwork(app, [u.user.id]);
      const n2 = await createNetwork(app, [u.user.id]);
      const { body } = await create(u, { description: 'Looking for playtesters for a co-op horror game on PC.', networkIds: [n1.id] }).expect(200);
      const path = `/api/intents/${body.intentId}/networks`;
      expect((await app.http.get(path).set(u.auth).expect(200)).body).toEqual({ networkIds: [n1.id] });
      changed.length = 0;

      expect((await app.http.post(path).set(u.auth).send({ networkId: n2.id }).expect(200)).body).toEqual({ networkIds: [n1.id, n2.id] });
      expect((await app.http.post(path).set(u.auth).send({ networkId: n2.id }).expect(200)).body).toEqual({ networkIds: [n1.id, n2.id] });
      expect((await app.http.delete(`${path}/${n1.id}`).set(u.auth).expect(200)).body).toEqual({ networkIds: [n2.id] });
      expect((await app.http.delete(`${path}/${n1.id}`).set(u.auth).expect(200)).body).toEqual({ networkIds: [n2.id] });
      expect((await app.http.get(`/api/intents/${body.intentId.slice(0, 8)}/networks`).set(u.auth).expect(200)).body).toEqual({ networkIds: [n2.id] });
      // Only the calls that changed something notify the other areas.
      expect(changed).toEqual([[body.intentId], [body.intentId]]);
    });

    it('refuses a network the caller is not in with 403, bad ids with 400, another user\'s intent with 404', async () => {
      const u = await createUser(app);
      const stranger = await createUser(app);
      const mine = await createNetwork(app, [u.user.id]);
      const theirs = await createNetwork(app, [stranger.user.id]);
      const { body } = await create(u, { description: 'Looking for playtesters for a co-op horror game on PC.' }).expect(200);
      const path = `/api/intents/${body.intentId}/networks`;
      const res = await app.http.post(path).set(u.auth).send({ networkId: theirs.id }).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', code: 'network_membership_required', detail: `You are not a member of network ${theirs.id}`, networkId: theirs.id });
      expect((await app.http.post(path).set(u.auth).send({ networkId: 'nope' }).expect(400)).body.details[0].path).toBe('networkId');
      expect((await app.http.post(path).set(u.auth).send({}).expect(400)).body.error).toBe('invalid_request');
      expect((await app.http.delete(`${path}/nope`).set(u.auth).expect(400)).body.details[0].path).toBe('networkId');
      await app.http.get(path).set(stranger.auth).expect(404);
      await app.http.post(path).set(stranger.auth).send({ networkId: mine.id }).expect(404);
      await app.http.delete(`${path}/${mine.id}`).set(stranger.auth).expect(404);
      expect((await app.http.get(path).set(u.auth)).body.networkIds).toEqual([mine.id]);
    });

    it('lets a former member unshare, and refuses to share an archived intent with 409', async () => {
      const u = await createUser(app);
      const owner = await createUser(app);
      const n = await createNetwork(app, [owner.user.id]);
      await addMember(app, n.id, u.user.id);
      const { body } = await create(u, { description: 'Looking for playtesters for a co-op horror game on PC.' }).expect(200);
      await app.withEm((em) => em.execute('delete from network_members where network_id = ? and user_id = ?', [n.id, u.user.id]));
      expect((await app.http.delete(`/api/intents/${body.intentId}/networks/${n.id}`).set(u.auth).expect(200)).body).toEqual({ networkIds: [] });

      await addMember(app, n.id, u.user.id);
      await app.http.patch(`/api/intents/${body.intentId}/archive`).set(u.auth).expect(200);
      const res = await app.http.post(`/api/intents/${body.intentId}/networks`).set(u.auth).send({ networkId: n.id }).expect(409);
      expect(res.body).toEqual({ error: 'intent_archived', detail: 'This intent is archived; it cannot be shared' });
    });

    it('withdraws a user\'s intents from a network they leave', async () => {
      const u = await createUser(app);
      const owner = await createUser(app);
      const n1 = await createNetwork(app, [owner.user.id, u.user.id]);
      const n2 = await createNetwork(app, [u.user.id]);
      const a = (await create(u, { description: 'Looking for playtesters for a co-op horror game on PC.' }).expect(200)).body.intentId;
      const b = (await create(u, { description: 'Offering pixel art for metroidvania sprites.' }).expect(200)).body.intentId;
      changed.length = 0;
      await app.http.post(`/api/networks/${n1.id}/leave`).set(u.auth).expect(200);
      expect((await app.http.get(`/api/intents/${a}/networks`).set(u.auth)).body.networkIds).toEqual([n2.id]);
      expect((await app.http.get(`/api/intents/${b}/networks`).set(u.auth)).body.networkIds).toEqual([n2.id]);
      expect(changed.map((ids) => [...ids].sort())).toEqual([[a, b].sort()]);
    });
  });

  describe('GraphQL', () => {
    it('links an intent to its owner and networks through batch loaders', async () => {
      const u = await createUser(app, { name: 'Ada' });
      const n = await createNetwork(app, [u.user.id]);
      const { body } = await create(u, { description: 'Looking for a technical cofounder for a SOC 2 compliance tool.' }).expect(200);
      await create(u, { description: 'Offering code reviews for Rust tokenizer libraries.' }).expect(200);
      const res = await app.http
        .post('/graphql')
        .set(u.auth)
        .send({ query: '{ intents { intents { id shortId description networkIds owner { id name } } pagination { total } } }' })
        .expect(200);
      expect(res.body.errors).toBeUndefined();
      const rows = res.body.data.intents.intents;
      expect(rows).toHaveLength(2);
      expect(rows[1]).toEqual({
        id: body.intentId,
        shortId: body.intentId.slice(0, 8),
        description: 'Looking for a technical cofounder for a SOC 2 compliance tool.',
        networkIds: [n.id],
        owner: { id: u.user.id, name: 'Ada' },
      });
      const anon = await app.http.post('/graphql').send({ query: `{ intent(id: "${body.intentId}") { id } }` }).expect(200);
      expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    });
  });
});
