import { startTestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { openStream } from '../helpers/sse-client';

describe('shutdown', () => {
  it('ends open event streams first, so stopping does not wait on them', async () => {
    const app = await startTestApp({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const { auth } = await createUser(app);
    const streams = await Promise.all([openStream(app.url, '/api/events', auth), openStream(app.url, '/api/events?after=0', auth)]);
    await Promise.all(streams.map((s) => s.waitFor(1)));
    expect(app.services.streamClosers.size).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    await app.close();
    await Promise.all(streams.map((s) => s.ended));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(app.services.eventStream.stats().open).toBe(0);
  });
});
