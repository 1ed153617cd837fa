import { startTestApp, type TestApp } from '../helpers/app';
import { loadDevSetForRun } from '../helpers/dev-set';
import { createUser, type TestUser } from '../helpers/factories';

describe('the matching dev set (realistic intents)', () => {
  let app: TestApp;
  const users = new Map<string, TestUser>();
  const data = loadDevSetForRun();
  beforeAll(async () => {
    app = await startTestApp();
    for (const i of data.intents) if (!users.has(i.user)) users.set(i.user, await createUser(app));
  });
  afterAll(() => app.close());

  it('is admitted in full by create with a description alone', async () => {
    const refused: string[] = [];
    for (const i of data.intents) {
      const res = await app.http.post('/api/intents').set(users.get(i.user)!.auth).send({ description: i.text });
      if (res.status !== 200) refused.push(`${i.key}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(refused).toEqual([]);
    // 136 sequential creates: generous on a loaded 2-core machine.
  }, 180_000);

  it('is mostly ready at prepare, and never refused there', async () => {
    const statuses: Record<string, string[]> = {};
    for (const i of data.intents) {
      const res = await app.http.post('/api/intents/prepare').set(users.get(i.user)!.auth).send({ payload: i.text });
      const status = res.status === 200 ? res.body.status : String(res.status);
      (statuses[status] ??= []).push(i.key);
    }
    expect(Object.keys(statuses).sort()).toEqual(expect.arrayContaining(['ready']));
    expect(Object.keys(statuses).filter((s) => s !== 'ready' && s !== 'needs_revision')).toEqual([]);
    // These drafts are specific enough to match on; asking about most of them would be noise.
    expect(statuses.ready.length / data.intents.length).toBeGreaterThanOrEqual(0.95);
  }, 180_000);
});
