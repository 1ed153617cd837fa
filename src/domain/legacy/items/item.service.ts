import type { Actor } from '../../auth/actor';
import { LegacyIndexItem } from '../../../entities/legacy-index-item.entity';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { newCommitId, newStreamId } from '../../shared/stream-id';
import { parseInput } from '../../shared/validation';
import type { IndexService } from '../indexes/index.service';
import { legacyCaller } from '../legacy-caller';
import { itemNotFound } from '../legacy.errors';
import { decodeCursor, encodeCursor } from './item-cursor.rules';
import type { ItemIndexer } from './item-indexer.service';
import { nodeTypeFor } from './item-nodes';
import { insertItem, itemOfNode, itemsByIds, liveItemOfNode, liveItemsAtPoints, liveItemsPage, reloadItem, reviveItem, softDeleteItem } from './items.repository';
import { ITEMS_DEFAULT_LIMIT, listItemsSchema } from './item.schemas';

export interface ItemPage {
  items: LegacyIndexItem[];
  /** Pass back as `cursor` for the next page; null on the last one. */
  cursor: string | null;
}

/** The stream id of a node's membership in an index: the same pair always gets the same id. */
const itemRecordId = (indexId: string, itemId: string) => newStreamId(`index-item:${indexId}:${itemId}`);

/** Items: nodes (web pages, intents) in an index, listed newest first or found by meaning. */
export class ItemService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly indexes: IndexService,
    private readonly indexer: ItemIndexer,
  ) {
    super(core);
  }

  /**
   * Adds a node to an index the caller controls; adding it again answers the same item. A new
   * (or returning) item gets its default embedding and enters the vector index.
   */
  async add(actor: Actor, indexId: string, itemId: string): Promise<LegacyIndexItem> {
    const caller = await legacyCaller(this.em, actor);
    await this.indexes.requireControlled(caller, indexId);
    const type = await nodeTypeFor(this.em, itemId, caller.userId);
    const nodeId = type === 'Intent' ? itemId.toLowerCase() : itemId;
    let item = await itemOfNode(this.em, indexId, [nodeId]);
    if (item && !item.deletedAt) return item;
    if (item) {
      // Conditional, so of concurrent adds of a removed item one revives it and all answer it.
      if (!(await reviveItem(this.em, item.id, newCommitId(item.id)))) return reloadItem(this.em, item);
    } else {
      item = await this.insert(indexId, nodeId, type);
    }
    await this.indexer.embedItems([item.id]);
    return reloadItem(this.em, item);
  }

  private async insert(indexId: string, itemId: string, type: LegacyIndexItem['itemType']): Promise<LegacyIndexItem> {
    const item = new LegacyIndexItem();
    item.id = itemRecordId(indexId, itemId);
    item.indexId = indexId;
    item.itemId = itemId;
    item.itemType = type;
    item.version = newCommitId(item.id);
    // Two adds of one node at once: the other request's row is answered.
    return insertItem(this.em, item);
  }

  /**
   * Removes a node from an index (soft). An item already removed is gone: 404, as for other
   * gone resources (issue 18). The write is conditional, so of concurrent removals one succeeds
   * and the others answer 404.
   */
  async remove(actor: Actor, indexId: string, itemId: string): Promise<LegacyIndexItem> {
    const caller = await legacyCaller(this.em, actor);
    await this.indexes.requireControlled(caller, indexId);
    const item = await itemOfNode(this.em, indexId, [itemId, itemId.toLowerCase()]);
    if (!item || item.deletedAt) throw itemNotFound();
    if (!(await softDeleteItem(this.em, item.id, newCommitId(item.id)))) throw itemNotFound();
    await this.indexer.syncPoints([item.id]);
    return reloadItem(this.em, item);
  }

  /** A live item of a live index, or 404. */
  async requireLive(indexId: string, itemId: string): Promise<LegacyIndexItem> {
    await this.indexes.requireLive(indexId);
    const item = await liveItemOfNode(this.em, indexId, [itemId, itemId.toLowerCase()]);
    if (!item) throw itemNotFound();
    return item;
  }

  /**
   * The items of a live index: newest first with an `after` cursor, or with `query` ranked by
   * how near their default embedding is to the query's (the vector index narrows, Postgres
   * confirms each hit is still a live item of this index).
   */
  async list(indexId: string, input: unknown): Promise<ItemPage> {
    const req = parseInput(listItemsSchema, input ?? {});
    await this.indexes.requireLive(indexId);
    const limit = req.limit ?? ITEMS_DEFAULT_LIMIT;
    if (req.query) return this.search(indexId, req.query, limit, req.cursor ?? null);
    const after = req.cursor ? decodeCursor(req.cursor, 'after') : null;
    const rows = await liveItemsPage(this.em, indexId, after?.kind === 'after' ? after : null, limit);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    const cursor = rows.length > limit && last ? encodeCursor({ kind: 'after', createdAt: last.createdAt.toISOString(), id: last.id }) : null;
    return { items, cursor };
  }

  private async search(indexId: string, query: string, limit: number, cursorText: string | null): Promise<ItemPage> {
    const cursor = cursorText ? decodeCursor(cursorText, 'offset') : null;
    const offset = cursor?.kind === 'offset' ? cursor.offset : 0;
    // Over-fetch: an entry may be stale for a moment on this instance (an item just removed).
    const want = offset + limit + 1;
    const hits = await this.indexer.search([indexId], query, want * 2 + 8);
    const rows = await liveItemsAtPoints(this.em, [indexId], hits.map((h) => h.pointId));
    const byPoint = new Map(rows.map((r) => [r.pointId, r]));
    const ranked = hits.map((h) => byPoint.get(h.pointId)).filter((r): r is LegacyIndexItem => !!r);
    const items = ranked.slice(offset, offset + limit);
    const cursorOut = ranked.length > offset + limit ? encodeCursor({ kind: 'offset', offset: offset + limit }) : null;
    return { items, cursor: cursorOut };
  }

  /** Items by their record ids in the order asked (null for unknown ones), for batch loaders. */
  async findMany(ids: readonly string[]): Promise<Array<LegacyIndexItem | null>> {
    const unique = [...new Set(ids)];
    const rows = await itemsByIds(this.em, unique);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}
