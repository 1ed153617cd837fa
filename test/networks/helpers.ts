import { randomUUID } from 'node:crypto';
import { Intent } from '../../src/entities/intent.entity';
import { IntentNetwork } from '../../src/entities/intent-network.entity';
import type { TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/** Accounts named in EARLY_ACCESS for the network tests (written in other casing on purpose). */
export const FOUNDER_EMAILS = ['founder@example.test', 'founder2@example.test'];
export const REVIEWER_WALLET = '0x00000000000000000000000000000000000000aa';
export const networkTestEnv = { EARLY_ACCESS: `${FOUNDER_EMAILS.map((e) => e.toUpperCase()).join(',')}, ${REVIEWER_WALLET.toUpperCase().replace('0X', '0x')}` };

export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.test`;

/** A user with early access by email (each address once per test file: every file has its own database). */
export function createFounder(app: TestApp, n = 0, name = 'Fran Founder'): Promise<TestUser> {
  return createUser(app, { email: FOUNDER_EMAILS[n], name });
}

export interface NetworkBody {
  id: string;
  title: string;
  prompt: string | null;
  imageUrl: string | null;
  joinPolicy: 'anyone' | 'invite_only';
  memberCount: number;
  role: 'owner' | 'member' | null;
  owner: { id: string; name: string; avatar: string } | null;
  shareCode: string | null;
  invitationCode: string | null;
}

export async function createNetwork(app: TestApp, owner: TestUser, fields: Record<string, unknown> = {}): Promise<NetworkBody> {
  const res = await app.http
    .post('/api/networks')
    .set(owner.auth)
    .send({ title: 'Climate founders', ...fields });
  if (res.status !== 201) throw new Error(`createNetwork: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.network;
}

export async function addMember(app: TestApp, networkId: string, owner: TestUser, user: TestUser, role: 'owner' | 'member' = 'member'): Promise<void> {
  const res = await app.http.post(`/api/networks/${networkId}/members`).set(owner.auth).send({ userId: user.user.id, permissions: [role] });
  if (res.status !== 200) throw new Error(`addMember: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Intents belong to another area; the tests write the rows the way it does. */
export async function shareIntent(
  app: TestApp,
  userId: string,
  networkIds: string[],
  fields: Partial<Pick<Intent, 'payload' | 'summary' | 'status' | 'archivedAt' | 'sourceType' | 'sourceId'>> = {},
): Promise<string> {
  return app.withEm(async (em) => {
    const intent = Object.assign(new Intent(), { userId, payload: 'Looking for a seed investor in climate tech', summary: 'Seed round', ...fields });
    em.persist(intent);
    await em.flush();
    for (const networkId of networkIds) em.persist(Object.assign(new IntentNetwork(), { intentId: intent.id, networkId }));
    await em.flush();
    return intent.id;
  });
}

export async function sharedNetworkIds(app: TestApp, intentId: string): Promise<string[]> {
  return app.withEm(async (em) => (await em.find(IntentNetwork, { intentId })).map((r) => r.networkId).sort());
}

/** Records the after-commit notices the networks area sends to other areas. */
export function recordHooks(app: TestApp): Array<{ event: string; payload: unknown }> {
  const seen: Array<{ event: string; payload: unknown }> = [];
  app.services.hooks.on('membership.removed', (payload) => void seen.push({ event: 'membership.removed', payload }));
  app.services.hooks.on('network.deleted', (payload) => void seen.push({ event: 'network.deleted', payload }));
  app.services.hooks.on('intents.changed', (payload) => void seen.push({ event: 'intents.changed', payload }));
  return seen;
}

export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
export const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/** A well-formed id that names nothing. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
