import http from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { eventually, quietPeriod } from '../helpers/eventually';
import { until, writeFrames } from './helpers';
import { openStream, type SseStream } from '../helpers/sse-client';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** Frames of 160 KiB: enough bytes to fill loopback socket buffers. */
const TOTAL = 150;
const ids = (s: SseStream) => s.messages.filter((m) => m.id).map((m) => Number(m.id));

describe('GET /api/events?consumer=<agentId>', () => {
  let app: TestApp;
  let owner: TestUser;
  let agent: { agentId: string; headers: { 'x-api-key': string } };
  const open: SseStream[] = [];
  const stream = async (query: string, headers: Record<string, string> = agent.headers) => {
    const s = await openStream(app.url, `/api/events?${query}`, headers);
    open.push(s);
    return s;
  };
  beforeAll(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    owner = await createUser(app);
    agent = await createExternalAgent(app, owner.user.id);
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(() => app.close());

  it("404 for a consumer that is not one of the caller's agents, 409 for one that is not the selected negotiator", async () => {
    const stranger = await createUser(app);
    const theirs = await createExternalAgent(app, stranger.user.id);
    for (const consumer of ['nope', UNKNOWN, theirs.agentId]) {
      const s = await stream(`consumer=${consumer}`);
      expect(s.status).toBe(404);
      expect(s.body.error).toBe('not_found');
    }
    const idle = await createExternalAgent(app, owner.user.id, { selected: false });
    const s = await stream(`consumer=${idle.agentId}`, owner.auth);
    expect(s.status).toBe(409);
    expect(s.body).toEqual({ error: 'not_selected_negotiator', detail: expect.any(String) });
  });

  it('keeps the offset on the server: a reconnect continues where the last connection stopped', async () => {
    await writeFrames(app, owner.user.id, 2);
    const first = await stream(`consumer=${agent.agentId}`);
    expect(first.status).toBe(200);
    await first.waitFor(1);
    // A new consumer starts with new frames only.
    await writeFrames(app, owner.user.id, 3);
    await first.waitFor(4);
    expect(ids(first)).toEqual([3, 4, 5]);
    first.close();
    await until(async () => (app.services.eventStream.stats().consumers === 0 ? true : undefined), 'the close');
    await writeFrames(app, owner.user.id, 3);
    // No cursor from the client: the server's offset decides.
    const second = await stream(`consumer=${agent.agentId}`);
    await second.waitFor(4);
    // A frame written after them: once it is here, a repeat of an earlier one would be too.
    await writeFrames(app, owner.user.id, 1);
    await second.waitFor(5);
    expect(ids(second)).toEqual([6, 7, 8, 9]);
    const lastSeen = await app.withEm((em) => em.execute<Array<{ last_seen_at: Date | null }>>(`select last_seen_at from agents where id = ?`, [agent.agentId]));
    expect(lastSeen[0].last_seen_at).not.toBeNull();
  });

  it('splits the frames between two connections of one consumer: each frame to exactly one', async () => {
    const a = await stream(`consumer=${agent.agentId}`);
    const b = await stream(`consumer=${agent.agentId}`);
    await Promise.all([a.waitFor(1), b.waitFor(1)]);
    await writeFrames(app, owner.user.id, 40, { oneTransaction: true });
    await writeFrames(app, owner.user.id, 20);
    await until(async () => (ids(a).length + ids(b).length >= 60 ? true : undefined), 'sixty frames', 10_000);
    // Over two connections a frame written now could go to either: only a quiet while shows no repeat.
    await quietPeriod(200);
    const all = [...ids(a), ...ids(b)].sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(ids(a).length).toBeGreaterThan(0);
    expect(ids(b).length).toBeGreaterThan(0);
    // Each connection still sees its share in order.
    for (const s of [a, b]) expect(ids(s)).toEqual([...ids(s)].sort((x, y) => x - y));
  });

  it('delivers again, after a reconnect, a frame whose delivery did not finish', async () => {
    // A client that takes the handshake, then stops reading while large frames pile up.
    const res = await new Promise<http.IncomingMessage>((resolve) => {
      http.get(`${app.url}/api/events?consumer=${agent.agentId}`, { headers: agent.headers }, resolve);
    });
    await new Promise((r) => res.once('data', r));
    res.pause();
    await writeFrames(app, owner.user.id, TOTAL, { size: 160 * 1024, oneTransaction: true });

    // Wait until the server is stuck writing one frame the client does not take.
    const stuck = await eventually(
      async () => {
        const [row] = await app.withEm((em) =>
          em.execute<Array<{ position: string; pending: string | null }>>(
            `select c.position, (select min(event_id) from event_consumer_claims x where x.agent_id = c.agent_id and not x.delivered) as pending
             from event_consumers c where c.agent_id = ?`,
            [agent.agentId],
          ),
        );
        // Stuck is a position that stays put for a while with a frame pending: the while is the check.
        await quietPeriod(300);
        const [again] = await app.withEm((em) => em.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ?`, [agent.agentId]));
        return row?.pending && again.position === row.position ? { position: String(row.position), pending: String(row.pending) } : undefined;
      },
      'the server to be stuck on one frame',
      { everyMs: 300 },
    );
    expect(Number(stuck.pending)).toBe(Number(stuck.position) + 1);
    expect(Number(stuck.pending)).toBeLessThan(TOTAL);

    // The client goes away without taking it: the claim goes back to the consumer.
    res.destroy();
    const released = Date.now() + 5000;
    while (Date.now() < released) {
      const rows = await app.withEm((em) => em.execute(`select 1 from event_consumer_claims where agent_id = ? and not delivered and connection_id is not null`, [agent.agentId]));
      if (!rows.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }

    // What the server counts as delivered when the connection ended: the OS took those bytes.
    // Between the check above and the disconnect it may have handed over one more frame.
    const [after] = await app.withEm((em) => em.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ?`, [agent.agentId]));
    const position = Number(after.position);
    expect(position).toBeGreaterThanOrEqual(Number(stuck.position));
    expect(position).toBeLessThan(TOTAL);

    // Without a cursor the server's offset decides (the reader's own cursor: consumer-redelivery.test.ts).
    const again = await stream(`consumer=${agent.agentId}`);
    const expected = Array.from({ length: TOTAL - position }, (_, i) => position + 1 + i);
    await again.waitFor(1 + expected.length, 30_000);
    // The frame the old connection was writing comes first, then the rest; nothing delivered before repeats.
    expect(ids(again)).toEqual(expected);
  }, 60_000);

  it('takes over the frame a dead instance had claimed once its heartbeat is stale', async () => {
    const first = await stream(`consumer=${agent.agentId}`);
    await first.waitFor(1);
    first.close();
    await until(async () => (app.services.eventStream.stats().consumers === 0 ? true : undefined), 'the close');
    await writeFrames(app, owner.user.id, 3);
    // Frame 1 was claimed by a connection of a process that died an hour ago.
    await app.withEm((em) =>
      em.execute(
        `insert into event_consumer_claims (agent_id, event_id, connection_id, delivered, claimed_at, heartbeat_at)
         values (?, 1, gen_random_uuid(), false, now() - interval '1 hour', now() - interval '1 hour')`,
        [agent.agentId],
      ),
    );
    const second = await stream(`consumer=${agent.agentId}`);
    await second.waitFor(4);
    expect(ids(second)).toEqual([1, 2, 3]);
  });

  it('ends the stream when the agent loses the seat; reconnecting is then 409', async () => {
    const s = await stream(`consumer=${agent.agentId}`);
    await s.waitFor(1);
    const actor = { userId: owner.user.id, credential: 'session' as const };
    await app.withEm(() => app.services.agents.update(actor, agent.agentId, { handleNegotiations: false }));
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([s.ended.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 3000)))]);
    clearTimeout(timer);
    expect(ended).toBe(true);
    const again = await stream(`consumer=${agent.agentId}`);
    expect(again.status).toBe(409);
  });

  it('starts a new consumer after the given cursor', async () => {
    await writeFrames(app, owner.user.id, 4);
    const s = await stream(`consumer=${agent.agentId}&after=2`);
    await s.waitFor(3);
    expect(ids(s)).toEqual([3, 4]);
  });
});
