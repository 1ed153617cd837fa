import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/** The matching dev set lives in the shared folder beside the repository (main or a worktree). */
function devSet(): { intents: Array<{ key: string; user: string; text: string }> } {
  const root = resolve(__dirname, '..', '..');
  const candidates = [
    process.env.MATCHING_DEV_SET,
    join(root, '..', 'shared', 'eval', 'matching-dev.json'),
    join(root, '..', '..', 'shared', 'eval', 'matching-dev.json'),
  ].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`matching-dev.json not found; looked in ${candidates.join(', ')} (set MATCHING_DEV_SET)`);
  return JSON.parse(readFileSync(found, 'utf8'));
}

describe('the matching dev set (realistic intents)', () => {
  let app: TestApp;
  const users = new Map<string, TestUser>();
  const data = devSet();
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
  });

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
  });
});
