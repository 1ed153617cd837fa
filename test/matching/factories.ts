import { Intent } from '../../src/entities/intent.entity';
import { IntentNetwork } from '../../src/entities/intent-network.entity';
import { Network } from '../../src/entities/network.entity';
import { NetworkMember } from '../../src/entities/network-member.entity';
import type { TestApp } from '../helpers/app';

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
