import type { EntityManager } from '@mikro-orm/postgresql';
import { lockEventCounters } from '../events/event-log';
import { insertDirectConversation, showTo } from './conversation.repository';

/** The unique key of the one DM between two users, whatever order they are given in. */
export function directPairKey(userA: string, userB: string): { key: string; low: string; high: string } {
  const [low, high] = [userA.toLowerCase(), userB.toLowerCase()].sort();
  return { key: `direct:${low}:${high}`, low, high };
}

export interface OpenDirectOptions {
  /**
   * Whose hide this opening clears. Default both participants: the opportunities area opens the
   * DM when both owners approved an introduction, news for both (docs/adr/0050-conversations.md).
   * A person opening or resuming the DM themselves clears only their own hide.
   */
  showTo?: readonly string[];
}

/**
 * The id of the one direct conversation between two users, created when missing. One
 * `insert ... on conflict` on the pair key, so concurrent callers (two owners approving at
 * once) get the same row without a read-then-write race. Runs inside the caller's transaction
 * (or its own when there is none).
 *
 * Both users' event counters are locked first: that is the order every conversation writer
 * takes (a message post locks the counters, then the conversation and participant rows), so a
 * caller that opens the DM and then appends frames (owner approval) waits for a concurrent
 * post, or makes it wait, instead of deadlocking with it.
 */
export async function openDirectConversation(em: EntityManager, userA: string, userB: string, opts: OpenDirectOptions = {}): Promise<string> {
  const { key, low, high } = directPairKey(userA, userB);
  if (low === high) throw new Error('A direct conversation needs two different users');
  if (!em.isInTransaction()) return em.transactional((tx) => openDirectConversation(tx as EntityManager, userA, userB, opts));
  await lockEventCounters(em, [low, high]);
  const id = await insertDirectConversation(em, { key, low, high });
  const shown = (opts.showTo ?? [low, high]).map((u) => u.toLowerCase()).filter((u) => u === low || u === high);
  if (shown.length) await showTo(em, id, shown);
  return id;
}
