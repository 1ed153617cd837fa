import http from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { until, writeFrames } from './helpers';
import { openStream } from '../helpers/sse-client';

const FRAME_BYTES = 160 * 1024;
const TOTAL = 150;

describe('a client that stops reading', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ EVENTS_SLOW_CLIENT_MS: '500' });
  });
  afterAll(() => app.close());

  it('is cut off without the server buffering more than one frame for it, and resumes by id', async () => {
    const { user, auth } = await createUser(app);
    const res = await new Promise<http.IncomingMessage>((resolve) => http.get(`${app.url}/api/events`, { headers: auth }, resolve));
    await new Promise((r) => res.once('data', r));
    res.pause();
    expect(app.services.eventStream.stats().open).toBe(1);

    await writeFrames(app, user.id, TOTAL, { size: FRAME_BYTES, oneTransaction: true });
    await until(async () => (app.services.eventStream.stats().cutOff > 0 ? true : undefined), 'the cut-off');
    const stats = app.services.eventStream.stats();
    expect(stats.cutOff).toBe(1);
    expect(stats.open).toBe(0);
    // The stream pulls one frame at a time: what it held when cut off is at most that frame.
    expect(stats.maxBufferedAtCutOff).toBeLessThanOrEqual(FRAME_BYTES + 1024);

    // The client reads what reached it, then sees the end.
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.resume();
    await new Promise<void>((r) => {
      res.on('close', r);
      res.on('end', r);
      res.on('error', () => r());
    });
    const got = [...text.matchAll(/^id: (\d+)\ndata: .*\n\n/gm)].map((m) => Number(m[1]));
    expect(got.length).toBeLessThan(TOTAL);
    got.forEach((id, i) => expect(id).toBe(i + 1));
    const last = got.length ? got[got.length - 1] : 0;

    const resumed = await openStream(app.url, '/api/events', { ...auth, 'Last-Event-ID': String(last) });
    try {
      const frames = await resumed.waitFor(1 + TOTAL - last, 30_000);
      expect(frames.slice(1).map((m) => Number(m.id))).toEqual(Array.from({ length: TOTAL - last }, (_, i) => last + 1 + i));
    } finally {
      resumed.close();
    }
  }, 60_000);
});
