import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { quietPeriod } from '../helpers/eventually';
import { rawReader, until, writeFrames, type RawReader } from './helpers';
import { openStream, type SseStream } from '../helpers/sse-client';

/** Frames of 160 KiB: enough bytes to fill loopback socket buffers. */
const BIG = 160 * 1024;
const TOTAL = 150;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const idsOf = (s: SseStream) => s.messages.filter((m) => m.id).map((m) => Number(m.id));

/**
 * Consumer frames the client never read (docs/adr/0053-stream-consumers.md): "delivered" to
 * the OS is not "read", so the reader's reconnect cursor decides what is sent again, and
 * frames a connection gives back reach the consumer's other connections at once.
 */
describe('GET /api/events?consumer=: redelivery and wakes', () => {
  /** The service the current test runs against (the nested describe swaps in its own). */
  let app: TestApp;
  let owner: TestUser;
  let agent: { agentId: string; headers: { 'x-api-key': string } };
  const readers: RawReader[] = [];
  const streams: SseStream[] = [];
  const reader = (query = '', headers: Record<string, string> = {}) => {
    const r = rawReader(`${app.url}/api/events?consumer=${agent.agentId}${query}`, { ...agent.headers, ...headers });
    readers.push(r);
    return r;
  };
  const stream = async (headers: Record<string, string> = {}) => {
    const s = await openStream(app.url, `/api/events?consumer=${agent.agentId}`, { ...agent.headers, ...headers });
    streams.push(s);
    return s;
  };
  const claims = () =>
    app.withEm((em) =>
      em.execute<Array<{ event_id: string; connection_id: string | null; delivered: boolean }>>(
        `select event_id, connection_id, delivered from event_consumer_claims where agent_id = ? order by event_id`,
        [agent.agentId],
      ),
    );
  const cutOffs = () => app.services.eventStream.stats().cutOff;

  beforeAll(async () => {
    // Long enough for the other connection to drain its share before the stalled one is cut off.
    app = await startTestApp({ EVENTS_SLOW_CLIENT_MS: '5000' });
  });
  beforeEach(async () => {
    owner = await createUser(app);
    agent = await createExternalAgent(app, owner.user.id);
  });
  afterEach(() => {
    readers.splice(0).forEach((r) => r.destroy());
    streams.splice(0).forEach((s) => s.close());
  });
  afterAll(() => app.close());

  it('a frame a stalled connection gave back reaches the other live connection without a new frame', async () => {
    const a = reader();
    await a.handshake;
    a.stopReading();
    const b = await stream();
    await b.waitFor(1);
    const before = cutOffs();
    await writeFrames(app, owner.user.id, TOTAL, { size: BIG, oneTransaction: true });

    // B drains everything it can and waits; A is stuck writing one frame it holds.
    const held = await until(async () => {
      const open = (await claims()).filter((r) => !r.delivered);
      return open.length === 1 && open[0].connection_id && idsOf(b).includes(TOTAL) && cutOffs() === before ? Number(open[0].event_id) : undefined;
    }, 'B idle while A holds a frame');
    expect(idsOf(b)).not.toContain(held);

    // A is cut off; no frame is written from here on.
    await until(async () => (cutOffs() > before ? true : undefined), 'the cut-off');
    await until(async () => (idsOf(b).includes(held) ? true : undefined), `frame ${held} on B`, 5000);
    expect(idsOf(b).filter((id) => id === held)).toHaveLength(1);
  }, 60_000);

  it("a reconnect while the old connection still looks alive ends it and sends what it wrote after the cursor", async () => {
    const a = reader();
    await a.handshake;
    await writeFrames(app, owner.user.id, 2);
    await until(async () => (a.ids.length === 2 ? true : undefined), 'the first frames');
    // A hangs with small frames in its buffers: the server sees no trouble and keeps it open.
    a.stopReading();
    await writeFrames(app, owner.user.id, 5);
    await until(async () => ((await claims()).filter((r) => r.delivered).length === 7 ? true : undefined), 'the frames sent to A');
    expect(app.services.eventStream.stats().consumers).toBe(1);

    const d = await stream({ 'Last-Event-ID': '2' });
    await d.waitFor(6);
    await until(async () => (app.services.eventStream.stats().consumers === 1 ? true : undefined), 'A to end');
    // A no longer takes a share: new frames go to D.
    await writeFrames(app, owner.user.id, 2);
    await d.waitFor(8);
    // A frame written after them: once it is here, a repeat of an earlier one would be too.
    await writeFrames(app, owner.user.id, 1);
    await d.waitFor(9);
    expect(idsOf(d)).toEqual(range(3, 10));
  });

  it('a cursor that no connection of the consumer sent acknowledges nothing (the offset decides)', async () => {
    const first = await stream();
    await first.waitFor(1);
    await writeFrames(app, owner.user.id, 3);
    await first.waitFor(4);
    first.close();
    await until(async () => (app.services.eventStream.stats().consumers === 0 ? true : undefined), 'the close');
    await writeFrames(app, owner.user.id, 2);
    // 99 was never sent: nothing comes again, nothing is skipped.
    const second = await stream({ 'Last-Event-ID': '99' });
    await second.waitFor(3);
    // A frame written after them: once it is here, a repeat of an earlier one would be too.
    await writeFrames(app, owner.user.id, 1);
    await second.waitFor(4);
    expect(idsOf(second)).toEqual([4, 5, 6]);
  });

  // These two need no other connection to drain before the cut-off, so a stalled reader is cut
  // off after 1.5 s instead of 5 s (the 5 s waits were most of their time): their own service.
  describe('with a quicker cut-off', () => {
    let patient: TestApp;
    beforeAll(async () => {
      patient = app;
      app = await startTestApp({ EVENTS_SLOW_CLIENT_MS: '1500' });
    });
    afterAll(async () => {
      await app.close();
      app = patient;
    });

    it('a reader that stopped reading and was cut off gets every frame after the last id it parsed, exactly once', async () => {
      const a = reader();
      await a.handshake;
      await writeFrames(app, owner.user.id, 3);
      await until(async () => (a.ids.length === 3 ? true : undefined), 'the first frames');
      a.stopReading();
      const before = cutOffs();
      await writeFrames(app, owner.user.id, TOTAL, { size: BIG, oneTransaction: true });
      await until(async () => (cutOffs() > before ? true : undefined), 'the cut-off');
      // The server counted some frames as sent (the OS took them); the reader never read them.
      const [{ position }] = await app.withEm((em) => em.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ?`, [agent.agentId]));
      expect(Number(position)).toBeGreaterThan(3);
      a.destroy();

      const again = await stream({ 'Last-Event-ID': String(a.ids.at(-1)) });
      await again.waitFor(1 + TOTAL, 30_000);
      // A frame written after them: once it is here, a repeat of an earlier one would be too.
      await writeFrames(app, owner.user.id, 1);
      await again.waitFor(2 + TOTAL, 30_000);
      expect(idsOf(again)).toEqual(range(4, 4 + TOTAL));
    }, 60_000);

    it('with two connections, only what the reconnecting reader was sent after its cursor comes again', async () => {
      const a = reader();
      const b = await stream();
      await Promise.all([a.handshake, b.waitFor(1)]);
      // Each connection claims the next frame when it is free, so which one gets a frame is a
      // race (on a loaded machine one took all of six): frames go out two at a time until both
      // connections have had some.
      let first = 0;
      while (first < 40 && !(a.ids.length > 0 && idsOf(b).length > 0)) {
        await writeFrames(app, owner.user.id, 2);
        first += 2;
        await until(async () => (a.ids.length + idsOf(b).length === first ? true : undefined), 'the first frames split');
      }
      expect(a.ids.length).toBeGreaterThan(0);
      expect(idsOf(b).length).toBeGreaterThan(0);
      a.stopReading();
      const before = cutOffs();
      await writeFrames(app, owner.user.id, TOTAL, { size: BIG, oneTransaction: true });
      await until(async () => (cutOffs() > before ? true : undefined), 'the cut-off');
      a.destroy();

      const again = await stream({ 'Last-Event-ID': String(a.ids.at(-1)) });
      // Everything the client read, over its three connections: each frame once.
      const read = () => [...a.ids, ...idsOf(b), ...idsOf(again)].sort((x, y) => x - y);
      await until(async () => (read().length >= first + TOTAL ? true : undefined), 'every frame read', 30_000);
      // Over three connections a frame written now could go to any of them: only a quiet while shows no repeat.
      await quietPeriod(300);
      expect(read()).toEqual(range(1, first + TOTAL));
    }, 60_000);
  });
});
