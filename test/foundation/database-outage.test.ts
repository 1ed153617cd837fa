import { adminQuery } from '../setup/db';
import { startTestApp, testEnv, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

/**
 * While the database cannot be reached, requests answer 503 `database_unavailable` (retryable),
 * authentication included, never a 500; once it is back, the same requests succeed.
 */
describe('a database outage', () => {
  let app: TestApp;
  const logLines: Array<Record<string, any>> = [];
  beforeAll(async () => {
    app = await startTestApp({ LOG_LEVEL: 'warn' }, undefined, { logLines });
  });
  afterAll(async () => {
    await adminQuery(testEnv().adminUrl, `alter database "${app.databaseName}" allow_connections true`).catch(() => undefined);
    await app.close();
  });

  it('answers 503 database_unavailable while it lasts, and recovers after', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);

    const { adminUrl } = testEnv();
    await adminQuery(adminUrl, `alter database "${app.databaseName}" allow_connections false`);
    await adminQuery(adminUrl, `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${app.databaseName}' and pid <> pg_backend_pid()`);

    for (const req of [app.http.get('/api/auth/me').set(u.auth), app.http.get(`/api/users/${u.user.id}`), app.http.post('/api/subscribe').send({ email: 'outage@example.com' })]) {
      const res = await req;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'database_unavailable', detail: 'The database cannot be reached right now; try again shortly', retryable: true });
    }
    expect((await app.http.get('/readyz')).status).toBe(503);

    await adminQuery(adminUrl, `alter database "${app.databaseName}" allow_connections true`);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.http.get('/readyz').expect(200);
  });

  // knex says a pooled connection was ended when it takes that connection from the pool next.
  it('logs a pooled connection the server ended as a warning in the service’s log, and nothing on the console', async () => {
    const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const u = await createUser(app);
      await app.http.get('/api/auth/me').set(u.auth).expect(200);
      logLines.length = 0;
      // With a timeout, pg_terminate_backend returns once the backend has gone.
      await adminQuery(testEnv().adminUrl, `select pg_terminate_backend(pid, 10000) from pg_stat_activity where datname = '${app.databaseName}' and pid <> pg_backend_pid()`);
      // The pool finds its connection ended, says so, and answers on a new one.
      await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(logLines).toContainEqual(expect.objectContaining({ level: 40, knex: true, msg: 'Connection Error: Connection ended unexpectedly' }));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
