import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { openOrm, type Orm } from '../../src/db/orm';
import { DomainError } from '../../src/domain/shared/errors';
import { cloneTestDatabase } from '../helpers/app';

/**
 * A small world for the access checks, written with plain SQL on a fresh clone (no service):
 * Ada owns network `n` where Ben is a member; Cy alone is in network `m`; Dee introduced Ada and
 * Ben's opportunity. Ada and Ben share a direct conversation; Ada and Ben each have an agent.
 */
export interface World {
  em: EntityManager;
  users: { ada: string; ben: string; cy: string; dee: string };
  networks: { n: string; m: string };
  intents: { ada: string; ben: string; benUnshared: string; cy: string };
  opportunity: string;
  conversation: string;
  agents: { ada: string; ben: string };
  close(): Promise<void>;
}

/** An id no row has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

export async function openWorld(): Promise<World> {
  const db = await cloneTestDatabase();
  const orm: Orm = await openOrm(db.url);
  const close = async () => {
    await orm.close(true);
    await db.drop();
  };
  try {
    return { ...(await write(orm.em.fork() as EntityManager)), close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function write(em: EntityManager): Promise<Omit<World, 'close'>> {
  const sql = (text: string, params: unknown[]) => em.execute(text, params);
  const id = () => randomUUID();

  const users = { ada: id(), ben: id(), cy: id(), dee: id() };
  for (const [name, userId] of Object.entries(users)) {
    await sql(`insert into users (id, name, notification_preferences, created_at, updated_at) values (?, ?, '{}', now(), now())`, [userId, name]);
  }
  const networks = { n: id(), m: id() };
  for (const [title, networkId] of Object.entries(networks)) {
    await sql(
      `insert into networks (id, title, join_policy, share_code, invitation_code, created_at, updated_at) values (?, ?, 'invite_only', ?, ?, now(), now())`,
      [networkId, title, `share-${networkId}`, `invite-${networkId}`],
    );
  }
  const member = (networkId: string, userId: string, role: 'owner' | 'member') =>
    sql(`insert into network_members (network_id, user_id, role, joined_at) values (?, ?, ?, now())`, [networkId, userId, role]);
  await member(networks.n, users.ada, 'owner');
  await member(networks.n, users.ben, 'member');
  await member(networks.m, users.cy, 'owner');

  const intents = { ada: id(), ben: id(), benUnshared: id(), cy: id() };
  const intent = async (intentId: string, userId: string, networkId: string | null) => {
    await sql(`insert into intents (id, user_id, payload, created_at, updated_at) values (?, ?, 'an intent', now(), now())`, [intentId, userId]);
    if (networkId) await sql(`insert into intent_networks (intent_id, network_id, shared_at) values (?, ?, now())`, [intentId, networkId]);
  };
  await intent(intents.ada, users.ada, networks.n);
  await intent(intents.ben, users.ben, networks.n);
  await intent(intents.benUnshared, users.ben, null);
  await intent(intents.cy, users.cy, networks.m);

  const opportunity = id();
  await sql(
    `insert into opportunities (id, intent_a_id, intent_b_id, user_a_id, user_b_id, network_id, introducer_id, card, expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, '{}', now() + interval '7 days', now(), now())`,
    [opportunity, intents.ada, intents.ben, users.ada, users.ben, networks.n, users.dee],
  );

  const conversation = id();
  await sql(`insert into conversations (id, kind, pair_key, user_a_id, user_b_id, created_at, updated_at) values (?, 'direct', ?, ?, ?, now(), now())`, [
    conversation,
    `${users.ada}:${users.ben}`,
    users.ada,
    users.ben,
  ]);
  for (const userId of [users.ada, users.ben]) {
    await sql(`insert into conversation_participants (conversation_id, user_id, joined_at) values (?, ?, now())`, [conversation, userId]);
  }

  const agents = { ada: id(), ben: id() };
  for (const [owner, agentId] of Object.entries(agents)) {
    await sql(`insert into agents (id, owner_id, name, created_at, updated_at) values (?, ?, 'an agent', now(), now())`, [
      agentId,
      users[owner as 'ada' | 'ben'],
    ]);
  }

  return {
    em,
    users,
    networks,
    intents,
    opportunity,
    conversation,
    agents,
  };
}

/** The refusal a promise ends with, as the body both transports answer (`{ code, error, ...extra }`). */
export async function refusal(p: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, error: err.error, ...err.extra };
    throw err;
  }
  throw new Error('expected a refusal, and the call was allowed');
}
