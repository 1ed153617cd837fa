import type { Actor } from '../auth/actor';
import { WebPage } from '../../entities/web-page.entity';
import { normalizeUrl } from './url-normalizer';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { notFound } from '../shared/errors';
import { isStreamId, newStreamId } from '../shared/stream-id';
import { parseInput } from '../shared/validation';
import { asDomainRefusal } from './fetch-refusal';
import type { ScrapeService } from './scrape.service';
import { createWebPageSchema } from './web.schemas';
import { savePage, webPageById, webPagesByIds } from './web-pages.repository';

/**
 * Web pages as nodes (decisions.md section 5: `POST /api/web-pages { url }` or `{ url, title,
 * content }`). The earlier route group indexes them as items by id.
 */
export class WebPageService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly scraper: ScrapeService,
  ) {
    super(core);
  }

  /** `{ url }` fetches the page and keeps its readable text; `{ url, content }` keeps what was given. */
  async create(a: Actor, input: unknown): Promise<WebPage> {
    const req = parseInput(createWebPageSchema, input);
    const page = new WebPage();
    page.id = newStreamId();
    page.createdById = a.userId;
    if (req.content !== undefined && req.content !== null) {
      page.url = (await asDomainRefusal(async () => normalizeUrl(req.url))).href;
      page.title = req.title || null;
      page.content = req.content;
    } else {
      const read = await this.scraper.readable(req.url);
      page.url = read.url;
      page.title = read.title;
      page.content = read.text;
    }
    await savePage(this.em, page);
    return page;
  }

  async get(id: string): Promise<WebPage> {
    const page = await this.find(id);
    if (!page) throw notFound('Web page');
    return page;
  }

  /** A page by id, or null (for the earlier route group resolving an item's node). */
  async find(id: string): Promise<WebPage | null> {
    if (!isStreamId(id)) return null;
    return webPageById(this.em, id);
  }

  /** Pages by id, in the order asked, null for ids that do not resolve (for batch loaders). */
  async findMany(ids: readonly string[]): Promise<Array<WebPage | null>> {
    const valid = ids.filter((id) => isStreamId(id));
    const rows = await webPagesByIds(this.em, valid);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}
