import type { SourcePassage } from '../ports';
import { LegacyIndexItem } from '../../../entities/legacy-index-item.entity';
import { liveIndexIds, liveIndexIdsOfControllers } from '../indexes/indexes.repository';
import { userIdsByWallets } from '../wallet-users.repository';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { badRequest } from '../../shared/errors';
import { isStreamId } from '../../shared/stream-id';
import { matchingPassages } from '../../web/passage-filter.rules';
import { isDid, parsePkhDid } from '../did.rules';
import type { ItemIndexer } from '../items/item-indexer.service';
import { loadNodeDocs } from '../items/item-nodes';
import { liveItemsAtPoints } from '../items/items.repository';
import { cutText } from '../../shared/text-cut';

/** Items read per question, and how much of each one's text an answer may quote. */
const ITEMS_PER_QUESTION = 6;
const TEXT_PER_ITEM = 1500;

/**
 * Retrieval for answers: sources (index ids, or DIDs standing for every index they control)
 * become index ids, and a question becomes the best passages of the nearest items in them.
 */
export class RetrievalService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly indexer: ItemIndexer,
  ) {
    super(core);
  }

  /**
   * Every source must be a live index id or a DID (400 naming the source otherwise). Returns the
   * live index ids they stand for; a DID that controls no index stands for none.
   */
  async resolveSources(sources: string[], path = 'sources'): Promise<string[]> {
    const { indexIds, problems } = await this.expand(sources);
    if (problems.length) throw badRequest(problems.map((p) => ({ path: `${path}.${p.at}`, message: p.message })));
    return indexIds;
  }

  /** The live indexes the sources stand for now; sources that no longer name one are left out. */
  async indexIdsOf(sources: string[]): Promise<string[]> {
    return (await this.expand(sources)).indexIds;
  }

  private async expand(sources: string[]): Promise<{ indexIds: string[]; problems: Array<{ at: number; message: string }> }> {
    const problems: Array<{ at: number; message: string }> = [];
    const streamIds = sources.filter((s) => isStreamId(s));
    const live = new Set(await liveIndexIds(this.em, streamIds));
    const addresses: string[] = [];
    sources.forEach((s, at) => {
      if (isStreamId(s)) {
        if (!live.has(s)) problems.push({ at, message: 'No such index' });
      } else if (isDid(s)) {
        const pkh = parsePkhDid(s);
        if (pkh) addresses.push(pkh.address);
      } else {
        problems.push({ at, message: 'Not an index id or a DID' });
      }
    });
    const out = new Set(live);
    if (addresses.length) {
      const owners = await userIdsByWallets(this.em, addresses);
      for (const id of await liveIndexIdsOfControllers(this.em, owners)) out.add(id);
    }
    return { indexIds: [...out], problems };
  }

  /** The passages of the items nearest the question, best first. */
  async passagesFor(indexIds: string[], question: string): Promise<SourcePassage[]> {
    if (!indexIds.length || !question.trim()) return [];
    const hits = (await this.indexer.search(indexIds, question, ITEMS_PER_QUESTION * 2)).filter((h) => h.score > 0);
    if (!hits.length) return [];
    const rows = await liveItemsAtPoints(this.em, indexIds, hits.map((h) => h.pointId));
    const byPoint = new Map(rows.map((r) => [r.pointId, r]));
    const ranked = hits.map((h) => byPoint.get(h.pointId)).filter((r): r is LegacyIndexItem => !!r);
    const docs = await loadNodeDocs(this.em, ranked);
    const seen = new Set<string>();
    const passages: SourcePassage[] = [];
    for (const item of ranked) {
      const doc = docs.get(item.itemId);
      // One node in several of the sources' indexes is one source.
      if (!doc || seen.has(doc.id)) continue;
      seen.add(doc.id);
      const text = matchingPassages(doc.text, question, TEXT_PER_ITEM) || cutText(doc.text, TEXT_PER_ITEM);
      passages.push({ title: doc.title, url: doc.url, text });
      if (passages.length >= ITEMS_PER_QUESTION) break;
    }
    return passages;
  }
}
