import { randomBytes } from 'node:crypto';
import { Network } from '../../src/entities/network.entity';
import { NetworkMember } from '../../src/entities/network-member.entity';
import { readEvents } from '../../src/domain/events/event-log';
import type { TestApp } from '../helpers/app';

/** Creates a network with members straight through the entities (the networks area owns the routes). */
export async function createNetwork(app: TestApp, memberIds: string[], title = `Network ${randomBytes(3).toString('hex')}`): Promise<Network> {
  return app.withEm(async (em) => {
    const network = new Network();
    network.title = title;
    network.shareCode = randomBytes(16).toString('hex');
    network.createdById = memberIds[0] ?? null;
    em.persist(network);
    await em.flush();
    memberIds.forEach((userId, i) => {
      const m = new NetworkMember();
      m.networkId = network.id;
      m.userId = userId;
      m.role = i === 0 ? 'owner' : 'member';
      m.joinedAt = new Date(Date.now() + i);
      em.persist(m);
    });
    await em.flush();
    return network;
  });
}

export async function addMember(app: TestApp, networkId: string, userId: string): Promise<void> {
  await app.withEm(async (em) => {
    const m = new NetworkMember();
    m.networkId = networkId;
    m.userId = userId;
    em.persist(m);
    await em.flush();
  });
}

/** Frames in a user's log, oldest first. */
export async function framesOf(app: TestApp, userId: string): Promise<Array<Record<string, any>>> {
  return app.withEm((em) => readEvents(em, userId, null, 100));
}
