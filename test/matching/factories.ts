import { Intent } from '../../src/entities/intent.entity';
import { IntentNetwork } from '../../src/entities/intent-network.entity';
import { Network } from '../../src/entities/network.entity';
import { NetworkMember } from '../../src/entities/network-member.entity';
import type { TestApp } from '../helpers/app';
import type { DevSet } from '../helpers/dev-set';
import { createUser, type TestUser } from '../helpers/factories';

let n = 0;

/** A network with these members (user ids), written through the entities. */
export async function createNetwork(app: TestApp, memberIds: string[], title = 'Network'): Promise<Network> {
  n += 1;
  return app.withEm(async (em) => {
    const network = Object.assign(new Network(), { title: `${title} ${n}`, joinPolicy: 'invite_only' as const });
    em.persist(network);
    for (const userId of memberIds) em.create(NetworkMember, { networkId: network.id, userId, role: 'member', joinedAt: new Date() });
    await em.flush();
    return network;
  });
}

/**
 * An intent shared in these networks, then announced the way the intents area does it
 * (the `intents.changed` hook), so matching indexes it.
 */
export async function createIntent(
  app: TestApp,
  userId: string,
  text: string,
  networkIds: string[],
  fields: Partial<Pick<Intent, 'status' | 'archivedAt' | 'summary' | 'createdAt'>> & { sharedAt?: Date } = {},
): Promise<Intent> {
  const intent = await app.withEm(async (em) => {
    const { sharedAt, ...rest } = fields;
    const i = em.create(Intent, { userId, payload: text, summary: '', status: 'active', createdAt: new Date(), updatedAt: new Date(), archivedAt: null, ...rest });
    for (const networkId of networkIds) em.create(IntentNetwork, { intentId: i.id, networkId, sharedAt: sharedAt ?? rest.createdAt ?? new Date() });
    await em.flush();
    return i;
  });
  await app.services.hooks.emit('intents.changed', { intentIds: [intent.id] });
  return intent;
}

/** The development set written into the service, keyed as in the file. */
export interface SeededDevSet {
  users: Map<string, TestUser>;
  networkIds: Map<string, string>;
  /** Intent key → intent id. */
  intentIds: Map<string, string>;
}

/**
 * Writes the development set the way the scorer sets it up: one account per user, the
 * networks, membership = the networks of a user's intents, then every intent shared in its
 * networks and announced to matching.
 */
export async function seedDevSet(app: TestApp, data: DevSet): Promise<SeededDevSet> {
  const users = new Map<string, TestUser>();
  for (const u of data.users) users.set(u.key, await createUser(app, { name: u.name }));
  const networkIds = new Map<string, string>();
  for (const n of data.networks) networkIds.set(n.key, (await createNetwork(app, [], n.title)).id);
  await app.withEm(async (em) => {
    for (const p of new Set(data.intents.flatMap((i) => i.networks.map((n) => `${n}|${i.user}`)))) {
      const [n, u] = p.split('|');
      em.create(NetworkMember, { networkId: networkIds.get(n)!, userId: users.get(u)!.user.id, role: 'member', joinedAt: new Date() });
    }
    await em.flush();
  });
  const intentIds = new Map<string, string>();
  for (const i of data.intents) intentIds.set(i.key, (await createIntent(app, users.get(i.user)!.user.id, i.text, i.networks.map((n) => networkIds.get(n)!))).id);
  return { users, networkIds, intentIds };
}
