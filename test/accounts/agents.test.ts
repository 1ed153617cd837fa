import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { selectedNegotiator } from '../../src/domain/agents/agents.repository';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { ISO, UUID } from './helpers';

const AGENT_KEYS = ['createdAt', 'handleNegotiations', 'id', 'lastSeenAt', 'name', 'ownerId', 'status', 'type', 'updatedAt'];

describe('agents', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const create = async (u: TestUser, name = 'My agent') => (await app.http.post('/api/agents').set(u.auth).send({ name }).expect(201)).body.agent;
  const patch = (u: TestUser, id: string, body: unknown) => app.http.patch(`/api/agents/${id}`).set(u.auth).send(body as object);
  const seat = async (u: TestUser) => (await app.http.get('/api/agents/me').set(u.auth).expect(200)).body.agent;
  const list = async (u: TestUser) => (await app.http.get('/api/agents').set(u.auth).expect(200)).body.agents as Array<{ id: string; type: string; handleNegotiations: boolean }>;
  const holderInDb = (u: TestUser) => app.withEm((em) => selectedNegotiator(em, u.user.id));

  describe('reads', () => {
    it('every user starts with the hosted system agent holding the seat', async () => {
      const u = await createUser(app);
      const agents = await list(u);
      expect(agents).toHaveLength(1);
      expect(Object.keys(agents[0]).sort()).toEqual(AGENT_KEYS);
      expect(agents[0]).toEqual({
        id: expect.stringMatching(UUID),
        ownerId: u.user.id,
        name: 'Hosted negotiator',
        type: 'system',
        status: 'active',
        handleNegotiations: true,
        lastSeenAt: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const me = await app.http.get('/api/agents/me').set(u.auth).expect(200);
      expect(me.body).toEqual({ agent: agents[0], onboardingCompletedAt: null, negotiationExecutorFence: true });
      expect((await app.http.get(`/api/agents/${agents[0].id}`).set(u.auth).expect(200)).body).toEqual({ agent: agents[0] });
    });

    it("another user's agent, an unknown id and a malformed id are 404", async () => {
      const a = await createUser(app);
      const b = await createUser(app);
      const theirs = await create(b);
      for (const id of [theirs.id, randomUUID(), 'nope']) {
        expect((await app.http.get(`/api/agents/${id}`).set(a.auth).expect(404)).body).toEqual({ error: 'not_found', detail: 'Agent not found' });
      }
    });

    it('an API key may read', async () => {
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      expect((await app.http.get('/api/agents').set(headers).expect(200)).body.agents).toHaveLength(1);
      expect((await app.http.get('/api/agents/me').set(headers).expect(200)).body.agent.type).toBe('system');
    });

    it('401 without a credential', async () => {
      await app.http.get('/api/agents').expect(401);
      await app.http.get('/api/agents/me').expect(401);
      await app.http.get(`/api/agents/${randomUUID()}`).expect(401);
    });
  });

  describe('POST /api/agents', () => {
    it('201 { agent } of type external, active, not selected', async () => {
      const u = await createUser(app);
      const res = await app.http.post('/api/agents').set(u.auth).send({ name: '  Claw  ' }).expect(201);
      expect(Object.keys(res.body.agent).sort()).toEqual(AGENT_KEYS);
      expect(res.body.agent).toMatchObject({ ownerId: u.user.id, name: 'Claw', type: 'external', status: 'active', handleNegotiations: false, lastSeenAt: null });
      expect((await list(u)).map((a) => a.type)).toEqual(['system', 'external']);
      expect((await seat(u)).type).toBe('system');
    });

    it('400 for a missing, empty, too long or non-string name', async () => {
      const u = await createUser(app);
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
        expect((await app.http.post('/api/agents').set(u.auth).send(body).expect(400)).body.error).toBe('invalid_request');
      }
      expect(await list(u)).toHaveLength(1);
    });

    it('422 past 20 external agents', async () => {
      const u = await createUser(app);
      await Promise.all(Array.from({ length: 20 }, (_, i) => create(u, `a${i}`)));
      const res = await app.http.post('/api/agents').set(u.auth).send({ name: 'one too many' }).expect(422);
      expect(res.body).toEqual({ error: 'agent_limit_reached', detail: expect.any(String) });
      expect(await list(u)).toHaveLength(21);
    });

    it('403 { error: forbidden, detail } for an API key', async () => {
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      const res = await app.http.post('/api/agents').set(headers).send({ name: 'x' }).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: expect.any(String) });
      expect(await list(u)).toHaveLength(1);
    });

    it('401 without a credential', async () => {
      await app.http.post('/api/agents').send({ name: 'x' }).expect(401);
    });
  });

  describe('PATCH /api/agents/:id', () => {
    it('renames and (de)activates, returning { agent }', async () => {
      const u = await createUser(app);
      const a = await create(u);
      const renamed = await patch(u, a.id, { name: 'Renamed' }).expect(200);
      expect(renamed.body.agent).toMatchObject({ id: a.id, name: 'Renamed', status: 'active' });
      expect(Object.keys(renamed.body.agent).sort()).toEqual(AGENT_KEYS);
      const off = await patch(u, a.id, { status: 'inactive' }).expect(200);
      expect(off.body.agent).toMatchObject({ name: 'Renamed', status: 'inactive', handleNegotiations: false });
      expect((await patch(u, a.id, { status: 'active' }).expect(200)).body.agent.status).toBe('active');
    });

    it('handleNegotiations true selects the agent and unselects the others; exactly one reports true', async () => {
      const u = await createUser(app);
      const a = await create(u, 'A');
      const b = await create(u, 'B');
      expect((await patch(u, a.id, { handleNegotiations: true }).expect(200)).body.agent.handleNegotiations).toBe(true);
      expect((await seat(u)).id).toBe(a.id);
      expect((await holderInDb(u)).agentId).toBe(a.id);
      expect((await list(u)).filter((x) => x.handleNegotiations).map((x) => x.id)).toEqual([a.id]);

      await patch(u, b.id, { handleNegotiations: true }).expect(200);
      const agents = await list(u);
      expect(agents.filter((x) => x.handleNegotiations).map((x) => x.id)).toEqual([b.id]);
      expect((await seat(u)).id).toBe(b.id);
      expect(await holderInDb(u)).toEqual({ agentId: b.id, type: 'external' });
    });

    it('handleNegotiations false on the selected agent gives the seat back to the hosted negotiator', async () => {
      const u = await createUser(app);
      const a = await create(u);
      await patch(u, a.id, { handleNegotiations: true }).expect(200);
      expect((await patch(u, a.id, { handleNegotiations: false }).expect(200)).body.agent.handleNegotiations).toBe(false);
      const holder = await seat(u);
      expect(holder).toMatchObject({ type: 'system', handleNegotiations: true });
      expect((await holderInDb(u)).type).toBe('system');
    });

    it('handleNegotiations false on an agent that is not selected changes nothing', async () => {
      const u = await createUser(app);
      const a = await create(u, 'A');
      const b = await create(u, 'B');
      await patch(u, a.id, { handleNegotiations: true }).expect(200);
      await patch(u, b.id, { handleNegotiations: false }).expect(200);
      expect((await seat(u)).id).toBe(a.id);
    });

    it('deactivating the selected agent gives the seat back to the hosted negotiator', async () => {
      const u = await createUser(app);
      const a = await create(u);
      await patch(u, a.id, { handleNegotiations: true }).expect(200);
      expect((await patch(u, a.id, { status: 'inactive' }).expect(200)).body.agent).toMatchObject({ status: 'inactive', handleNegotiations: false });
      expect((await seat(u)).type).toBe('system');
      // Reactivating does not take the seat back by itself.
      await patch(u, a.id, { status: 'active' }).expect(200);
      expect((await seat(u)).type).toBe('system');
    });

    it('an inactive agent cannot be selected: 409 agent_inactive, or 400 in the same request', async () => {
      const u = await createUser(app);
      const a = await create(u);
      await patch(u, a.id, { status: 'inactive' }).expect(200);
      expect((await patch(u, a.id, { handleNegotiations: true }).expect(409)).body).toEqual({ error: 'agent_inactive', detail: expect.any(String) });
      const both = await patch(u, a.id, { status: 'inactive', handleNegotiations: true }).expect(400);
      expect(both.body.details).toEqual([{ path: 'handleNegotiations', message: 'An inactive agent cannot hold the negotiation seat' }]);
      // Activating and selecting in one request is fine.
      expect((await patch(u, a.id, { status: 'active', handleNegotiations: true }).expect(200)).body.agent.handleNegotiations).toBe(true);
    });

    it('the hosted negotiator cannot be renamed, deactivated or deselected (403), but may take the seat back', async () => {
      const u = await createUser(app);
      const system = (await list(u))[0];
      for (const body of [{ name: 'x' }, { status: 'inactive' }, { handleNegotiations: false }]) {
        const res = await patch(u, system.id, body).expect(403);
        expect(res.body).toEqual({ error: 'forbidden', detail: expect.stringContaining('hosted negotiator') });
      }
      const a = await create(u);
      await patch(u, a.id, { handleNegotiations: true }).expect(200);
      expect((await patch(u, system.id, { handleNegotiations: true }).expect(200)).body.agent).toMatchObject({ type: 'system', handleNegotiations: true });
      expect((await app.http.get(`/api/agents/${a.id}`).set(u.auth).expect(200)).body.agent.handleNegotiations).toBe(false);
      expect((await holderInDb(u)).type).toBe('system');
    });

    it('400 for bad input', async () => {
      const u = await createUser(app);
      const a = await create(u);
      for (const body of [{}, { status: 'paused' }, { name: '' }, { handleNegotiations: 'yes' }, { status: 1 }]) {
        expect((await patch(u, a.id, body).expect(400)).body.error).toBe('invalid_request');
      }
    });

    it("404 for another user's agent", async () => {
      const a = await createUser(app);
      const b = await createUser(app);
      const theirs = await create(b);
      await patch(a, theirs.id, { handleNegotiations: true }).expect(404);
      await patch(a, randomUUID(), { name: 'x' }).expect(404);
      expect((await seat(b)).type).toBe('system');
    });

    it('403 { error: forbidden, detail } for an API key', async () => {
      const u = await createUser(app);
      const a = await create(u);
      const { headers } = await createApiKey(app, u.user.id, a.id);
      const res = await app.http.patch(`/api/agents/${a.id}`).set(headers).send({ handleNegotiations: true }).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: expect.any(String) });
      expect((await seat(u)).type).toBe('system');
    });

    it('401 without a credential', async () => {
      await app.http.patch(`/api/agents/${randomUUID()}`).send({ name: 'x' }).expect(401);
    });

    it('two concurrent selections both succeed and leave exactly one selected agent', async () => {
      const u = await createUser(app);
      const agents = await Promise.all(['A', 'B', 'C', 'D'].map((n) => create(u, n)));
      for (let round = 0; round < 8; round++) {
        const [x, y] = [agents[round % 4], agents[(round + 1) % 4]];
        const results = await Promise.all([patch(u, x.id, { handleNegotiations: true }), patch(u, y.id, { handleNegotiations: true })]);
        expect(results.map((r) => r.status)).toEqual([200, 200]);
        const selected = (await list(u)).filter((a) => a.handleNegotiations);
        expect(selected).toHaveLength(1);
        expect([x.id, y.id]).toContain(selected[0].id);
        expect((await holderInDb(u)).agentId).toBe(selected[0].id);
      }
    });
  });

  describe('DELETE /api/agents/:id', () => {
    it('deletes the agent; deleting the selected one gives the seat back to the hosted negotiator', async () => {
      const u = await createUser(app);
      const a = await create(u);
      await patch(u, a.id, { handleNegotiations: true }).expect(200);
      expect((await app.http.delete(`/api/agents/${a.id}`).set(u.auth).expect(200)).body).toEqual({ success: true });
      await app.http.get(`/api/agents/${a.id}`).set(u.auth).expect(404);
      expect((await seat(u)).type).toBe('system');
      await app.http.delete(`/api/agents/${a.id}`).set(u.auth).expect(404);
    });

    it("removes the agent's API keys with it", async () => {
      const u = await createUser(app);
      const a = await create(u);
      const { headers } = await createApiKey(app, u.user.id, a.id);
      await app.http.get('/api/agents').set(headers).expect(200);
      await app.http.delete(`/api/agents/${a.id}`).set(u.auth).expect(200);
      await app.http.get('/api/agents').set(headers).expect(401);
    });

    it('403 for the hosted negotiator', async () => {
      const u = await createUser(app);
      const system = (await list(u))[0];
      expect((await app.http.delete(`/api/agents/${system.id}`).set(u.auth).expect(403)).body).toEqual({ error: 'forbidden', detail: expect.any(String) });
      expect(await list(u)).toHaveLength(1);
    });

    it("404 for another user's agent", async () => {
      const a = await createUser(app);
      const b = await createUser(app);
      const theirs = await create(b);
      await app.http.delete(`/api/agents/${theirs.id}`).set(a.auth).expect(404);
      await app.http.get(`/api/agents/${theirs.id}`).set(b.auth).expect(200);
    });

    it('403 { error: forbidden, detail } for an API key', async () => {
      const u = await createUser(app);
      const a = await create(u);
      const { headers } = await createApiKey(app, u.user.id);
      expect((await app.http.delete(`/api/agents/${a.id}`).set(headers).expect(403)).body).toEqual({ error: 'forbidden', detail: expect.any(String) });
      await app.http.get(`/api/agents/${a.id}`).set(u.auth).expect(200);
    });

    it('401 without a credential', async () => {
      await app.http.delete(`/api/agents/${randomUUID()}`).expect(401);
    });
  });

  it('announces seat changes to other areas after commit', async () => {
    const u = await createUser(app);
    const seen: Array<{ userId: string; agentId: string; type: string }> = [];
    app.services.hooks.on('negotiator.changed', (p) => {
      if (p.userId === u.user.id) seen.push(p);
    });
    const a = await create(u);
    const system = (await list(u))[0];
    await patch(u, a.id, { handleNegotiations: true }).expect(200);
    await patch(u, a.id, { name: 'no seat change' }).expect(200);
    await patch(u, a.id, { handleNegotiations: false }).expect(200);
    expect(seen).toEqual([
      { userId: u.user.id, agentId: a.id, type: 'external' },
      { userId: u.user.id, agentId: system.id, type: 'system' },
    ]);
  });

  it('markSeen records lastSeenAt', async () => {
    const u = await createUser(app);
    const a = await create(u);
    await app.withEm(() => app.services.agents.markSeen(a.id));
    expect((await app.http.get(`/api/agents/${a.id}`).set(u.auth).expect(200)).body.agent.lastSeenAt).toMatch(ISO);
  });

  it('GraphQL: an agent links to its owner', async () => {
    const u = await createUser(app, { name: 'Owner' });
    const res = await app.http.post('/graphql').set(u.auth).send({ query: '{ agents { type owner { id name } } }' }).expect(200);
    expect(res.body).toEqual({ data: { agents: [{ type: 'system', owner: { id: u.user.id, name: 'Owner' } }] } });
  });
});
