import type { EntityManager } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { appendEvent, EVENTS_CHANNEL, readEvents } from '../../src/domain/events/event-log';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { createUser } from '../helpers/factories';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event write path', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('assigns per-user ids gap-free and in commit order under concurrent writers', async () => {
    const { user } = await createUser(app);
    const { user: other } = await createUser(app);
    const listener = new Client({ connectionString: app.databaseUrl });
    await listener.connect();
    const notified: Array<{ userId: string; eventId: string }> = [];
    listener.on('notification', (m) => notified.push(JSON.parse(m.payload!)));
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);

    // A reader polls while writers run: every page it reads must continue exactly where the
    // previous one ended, or a frame committed with a smaller id after a larger one was seen.
    let polling = true;
    const seen: string[] = [];
    const reader = (async () => {
      let after: string | null = null;
      while (polling) {
        const frames = await app.withEm((em) => readEvents(em, user.id, after, 100));
        for (const f of frames) {
          expect(f.eventId).toBe(String(Number(after ?? '0') + 1));
          seen.push(f.eventId);
          after = f.eventId;
        }
        await sleep(2);
      }
    })();

    const writers = 40;
    await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        app.withEm((em) =>
          em.transactional(async (tx) => {
            await appendEvent(tx as EntityManager, i % 4 === 0 ? other.id : user.id, { type: 'test.frame', n: i });
            // Hold the transaction open for a while so writers overlap.
            await sleep(Math.random() * 20);
          }),
        ),
      ),
    );
    await eventually(() => seen.length >= 30, 'the reader to read every frame');
    polling = false;
    await reader;

    const mine = await app.withEm((em) => readEvents(em, user.id, null, 100));
    const theirs = await app.withEm((em) => readEvents(em, other.id, null, 100));
    expect(mine.map((f) => f.eventId)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
    expect(theirs.map((f) => f.eventId)).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    expect(seen).toEqual(mine.map((f) => f.eventId));

    // Notifications are delivered at commit, in commit order: per user they must be 1, 2, 3, ...
    await eventually(() => notified.filter((n) => n.userId === user.id).length >= 30, 'every notification');
    const order = notified.filter((n) => n.userId === user.id).map((n) => n.eventId);
    expect(order).toEqual(mine.map((f) => f.eventId));
    await listener.end();

    expect(mine[0]).toMatchObject({ type: 'test.frame', eventId: '1' });
    expect(typeof mine[0].at).toBe('string');
  });

  it('writes nothing and notifies nobody when the transaction rolls back', async () => {
    const { user } = await createUser(app);
    await expect(
      app.withEm((em) =>
        em.transactional(async (tx) => {
          await appendEvent(tx as EntityManager, user.id, { type: 'test.frame' });
          throw new Error('change failed');
        }),
      ),
    ).rejects.toThrow('change failed');
    const frames = await app.withEm((em) => readEvents(em, user.id, null, 10));
    expect(frames).toEqual([]);
    // The next frame still gets id 1: the counter bump rolled back with the change.
    await app.withEm((em) => em.transactional((tx) => appendEvent(tx as EntityManager, user.id, { type: 'test.frame' })));
    expect((await app.withEm((em) => readEvents(em, user.id, null, 10))).map((f) => f.eventId)).toEqual(['1']);
  });

  it('refuses to write outside a transaction', async () => {
    const { user } = await createUser(app);
    await expect(app.withEm((em) => appendEvent(em, user.id, { type: 'x' }))).rejects.toThrow(/inside a transaction/);
  });

  it('wakes local listeners through the notifier after commit', async () => {
    const { user } = await createUser(app);
    const got = new Promise<string>((resolve) => {
      const off = app.services.notifier.onUser(user.id, (id) => {
        off();
        resolve(id);
      });
    });
    await app.withEm((em) => em.transactional((tx) => appendEvent(tx as EntityManager, user.id, { type: 'test.frame' })));
    await expect(got).resolves.toBe('1');
  });
});
