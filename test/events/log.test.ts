import { pruneEvents, EVENTS_PRUNE_JOB } from '../../src/domain/events/retention';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { ageFrames, writeFrames } from './helpers';
import { openStream } from '../helpers/sse-client';

describe('GET /api/events/log', () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    user = await createUser(app);
  });
  afterAll(() => app.close());

  it('pages oldest first: limit defaults to 100, next is the last id of a full page', async () => {
    await writeFrames(app, user.user.id, 130, { oneTransaction: true });
    const first = await app.http.get('/api/events/log').set(user.auth);
    expect(first.status).toBe(200);
    expect(first.body.events).toHaveLength(100);
    expect(first.body.events[0]).toEqual({ eventId: '1', at: expect.any(String), type: 'test.frame', n: 0, pad: '' });
    expect(first.body.next).toBe('100');
    const rest = await app.http.get(`/api/events/log?after=${first.body.next}`).set(user.auth);
    expect(rest.body.events.map((e: { eventId: string }) => e.eventId)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 101)));
    expect(rest.body.next).toBeNull();
    const small = await app.http.get('/api/events/log?after=5&limit=3').set(user.auth);
    expect(small.body).toEqual({ events: [expect.objectContaining({ eventId: '6' }), expect.objectContaining({ eventId: '7' }), expect.objectContaining({ eventId: '8' })], next: '8' });
    const empty = await app.http.get('/api/events/log?after=130').set(user.auth);
    expect(empty.body).toEqual({ events: [], next: null });
  });

  it('refuses a limit above 100, a limit below 1 and a malformed after (400), and no credential (401)', async () => {
    for (const q of ['limit=101', 'limit=0', 'limit=ten', 'after=abc']) {
      const res = await app.http.get(`/api/events/log?${q}`).set(user.auth);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
    expect((await app.http.get('/api/events/log')).status).toBe(401);
  });

  it("shows only the caller's frames", async () => {
    const other = await createUser(app);
    await writeFrames(app, other.user.id, 3);
    expect((await app.http.get('/api/events/log').set(user.auth)).body.events).toEqual([]);
  });

  it('returns what is still kept when after is older than the retention', async () => {
    await writeFrames(app, user.user.id, 5);
    await ageFrames(app, user.user.id, 2, 7.5);
    await pruneEvents(app.services.orm);
    const res = await app.http.get('/api/events/log?after=0').set(user.auth);
    expect(res.body.events.map((e: { eventId: string }) => e.eventId)).toEqual(['3', '4', '5']);
    // Younger than 7 days stays.
    await ageFrames(app, user.user.id, 4, 6.9);
    await pruneEvents(app.services.orm);
    expect((await app.http.get('/api/events/log').set(user.auth)).body.events).toHaveLength(3);
    // Ids keep counting after a prune.
    await writeFrames(app, user.user.id, 1);
    expect((await app.http.get('/api/events/log?after=5').set(user.auth)).body.events[0].eventId).toBe('6');
  });
});

describe('retention schedule and unavailability', () => {
  it('registers the prune job as a pg-boss schedule when jobs run', async () => {
    const app = await startTestApp({ JOBS_ENABLED: 'true' });
    try {
      const rows = await app.withEm((em) => em.execute<Array<{ name: string; cron: string }>>(`select name, cron from pgboss.schedule where name = ?`, [EVENTS_PRUNE_JOB]));
      expect(rows).toEqual([{ name: EVENTS_PRUNE_JOB, cron: expect.stringMatching(/^\d+ \* \* \* \*$/) }]);
    } finally {
      await app.close();
    }
  });

  it('answers 503 when the log or the stream cannot be served', async () => {
    const app = await startTestApp();
    try {
      const { auth } = await createUser(app);
      // The notification listener is down: a stream could not follow new frames.
      await app.services.notifier.stop();
      const s = await openStream(app.url, '/api/events', auth);
      expect(s.status).toBe(503);
      expect(s.body).toEqual({ error: 'events_unavailable', detail: expect.any(String) });

      // The log's table cannot be read (as when its database fails mid-way): 503, not 500.
      await app.withEm((em) => em.execute(`alter table events rename to events_away`));
      try {
        const res = await app.http.get('/api/events/log').set(auth);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'events_unavailable', detail: expect.any(String) });
      } finally {
        await app.withEm((em) => em.execute(`alter table events_away rename to events`));
      }
      expect((await app.http.get('/api/events/log').set(auth)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
