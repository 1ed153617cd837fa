import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { EMBED_JOB } from '../../src/domain/matching/intent-indexer.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { openStream } from '../helpers/sse-client';

/** The value of one sample line (`name{labels} value`), or null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('GET /metrics (Prometheus)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ JOBS_ENABLED: 'true' });
  });
  afterAll(() => app.close());

  const scrape = async () => (await app.http.get('/metrics').expect(200)).text;

  it('is served in the Prometheus text format, without a token when METRICS_TOKEN is unset', async () => {
    const res = await app.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.text).toContain('# TYPE process_cpu_seconds_total counter');
  });

  it('times requests per route template, not per raw path', async () => {
    const { auth } = await createUser(app);
    const id = '00000000-0000-4000-8000-00000000abcd';
    await app.http.get(`/api/intents/${id}`).set(auth).expect(404);
    await app.http.get('/api/auth/me').set(auth).expect(200);
    await app.http.post('/graphql').send({ query: '{ authProviders { id } }' }).expect(200);
    await app.http.get('/api/no/such/route').expect(404);
    const text = await scrape();
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/intents/:id",status="404"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/auth/me",status="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="POST",route="/graphql",status="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/auth/me",status="200"}')).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('/api/no/such/route');
  });

  it('counts open event streams and graphql-ws sockets as they open and close', async () => {
    const { token } = await createUser(app);
    const gauges = async () => {
      const t = await scrape();
      return { sse: sample(t, 'intro_match_sse_streams_open'), ws: sample(t, 'intro_match_graphql_ws_sockets_open') };
    };
    expect(await gauges()).toEqual({ sse: 0, ws: 0 });
    const stream = await openStream(app.url, `/api/events?token=${token}`);
    await stream.waitFor(1);
    const client = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const events = client.iterate({ query: 'subscription { events { type } }' });
    await events.next();
    expect(await gauges()).toEqual({ sse: 1, ws: 1 });
    stream.close();
    await events.return?.();
    await client.dispose();
    expect(await until(gauges, (g) => g.sse === 0 && g.ws === 0)).toEqual({ sse: 0, ws: 0 });
  });

  it('shows the embedding backlog and the job queue depth', async () => {
    const { auth } = await createUser(app);
    const before = await scrape();
    expect(sample(before, 'intro_match_embedding_backlog{kind="intent"}')).toBe(0);
    expect(sample(before, 'intro_match_embedding_backlog{kind="item"}')).toBe(0);
    const created = await app.http.post('/api/intents').set(auth).send({ description: 'Looking for a product designer for a healthcare startup in Lisbon' }).expect(200);
    const intentId = created.body.intentId;
    await app.services.matching.indexer.idle();
    expect(sample(await scrape(), 'intro_match_embedding_backlog{kind="intent"}')).toBe(0);
    // As after a provider outage: the vector is stale until the retry job runs.
    await app.withEm((em) => em.execute(`update intent_vectors set state = 'pending' where intent_id = ?`, [intentId]));
    expect(sample(await scrape(), 'intro_match_embedding_backlog{kind="intent"}')).toBe(1);

    // A retry due in an hour waits in its queue.
    await app.services.jobs.send(EMBED_JOB, { intentIds: [intentId] }, { startAfter: 3600 });
    expect(sample(await scrape(), `intro_match_job_queue_depth{queue="${EMBED_JOB}",state="created"}`)).toBe(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ METRICS_TOKEN: 'metrics-token-0123456789' });
  });
  afterAll(() => app.close());

  it('needs the token as a bearer', async () => {
    const none = await app.http.get('/metrics').expect(401);
    expect(none.body).toEqual({ error: 'unauthorized', detail: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    await app.http.get('/metrics').set('Authorization', 'Bearer metrics-token-0123456780').expect(401);
    const ok = await app.http.get('/metrics').set('Authorization', 'Bearer metrics-token-0123456789').expect(200);
    expect(ok.text).toContain('http_request_duration_seconds');
  });
});
