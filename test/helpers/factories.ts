import { randomBytes } from 'node:crypto';
import type { User } from '../../src/entities/user.entity';
import type { TestApp } from './app';

export interface TestUser {
  user: User;
  token: string;
  sessionId: string;
  /** Headers for a session-authenticated request. */
  auth: { Authorization: string };
}

let counter = 0;

/** Creates a user with a web session directly through the services (no sign-in round trip). */
export async function createUser(app: TestApp, fields: Partial<Pick<User, 'email' | 'walletAddress' | 'name' | 'intro'>> = {}): Promise<TestUser> {
  counter += 1;
  return app.withEm(async (em) => {
    const user = await app.services.accounts.createUser({
      name: fields.name ?? `Test User ${counter}`,
      email: fields.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.test`,
      walletAddress: fields.walletAddress ?? null,
    });
    if (fields.intro) {
      user.intro = fields.intro;
      await em.flush();
    }
    const { token, session } = await app.services.sessions.issue(em, user.id, { provider: 'test' });
    return { user, token, sessionId: session.id, auth: { Authorization: `Bearer ${token}` } };
  });
}

/** Creates an API key for the user (optionally for one of their agents). */
export async function createApiKey(app: TestApp, userId: string, agentId: string | null = null): Promise<{ key: string; headers: { 'x-api-key': string } }> {
  return app.withEm(async (em) => {
    const { key } = await app.services.apiKeys.create(em, userId, 'test key', agentId);
    return { key, headers: { 'x-api-key': key } };
  });
}
