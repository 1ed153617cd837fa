import type { EntityManager } from '@mikro-orm/postgresql';
import type { IndexItemType } from '../../../entities/legacy-index-item.entity';
import { isStreamId } from '../../shared/stream-id';
import { isUuid } from '../../shared/validation';
import { itemNotFound } from '../legacy.errors';
import { hasAccess } from '../../access/require-access';
import { intentsByIds } from './items.repository';
import { webPageExists, webPagesByIds } from '../../web/web-pages.repository';

/** What retrieval and embedding read of a node. */
export interface NodeDoc {
  id: string;
  type: IndexItemType;
  title: string | null;
  url: string | null;
  text: string;
}

/** The text a node's default embedding is made from. */
export const documentOf = (n: NodeDoc) => (n.title ? `${n.title}\n\n${n.text}` : n.text);

/**
 * What a node id names, for a caller adding it to an index: any web page (pages are shared
 * nodes), or one of the caller's own intents. Anything else is 404, as another user's intent is.
 */
export async function nodeTypeFor(em: EntityManager, itemId: string, userId: string): Promise<IndexItemType> {
  if (isStreamId(itemId) && (await webPageExists(em, itemId))) return 'WebPage';
  if (isUuid(itemId) && (await hasAccess(em, { userId }, 'intent.own', itemId))) return 'Intent';
  throw itemNotFound();
}

/** The documents of these nodes by id; nodes that are gone are absent. */
export async function loadNodeDocs(em: EntityManager, refs: ReadonlyArray<{ itemId: string; itemType: string }>): Promise<Map<string, NodeDoc>> {
  const pageIds = [...new Set(refs.filter((r) => r.itemType === 'WebPage').map((r) => r.itemId))];
  const intentIds = [...new Set(refs.filter((r) => r.itemType === 'Intent' && isUuid(r.itemId)).map((r) => r.itemId))];
  const out = new Map<string, NodeDoc>();
  for (const p of await webPagesByIds(em, pageIds)) {
    out.set(p.id, { id: p.id, type: 'WebPage', title: p.title, url: p.url, text: p.content });
  }
  for (const i of await intentsByIds(em, intentIds)) {
    out.set(i.id, { id: i.id, type: 'Intent', title: i.summary || null, url: null, text: i.payload });
  }
  return out;
}
