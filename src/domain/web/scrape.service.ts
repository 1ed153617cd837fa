import { readPage, type ReadablePage } from './page-reader';
import type { SafeFetcher } from './safe-fetcher';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { ProviderError } from '../shared/ports';
import { parseInput } from '../shared/validation';
import { asDomainRefusal, nothingReadable } from './fetch-refusal';
import { matchingPassages } from './passage-filter.rules';
import type { PageExtractor } from './ports';
import { scrapeSchema } from './web.schemas';

export interface ScrapeResult {
  url: string;
  title: string | null;
  text: string;
}

/** POST /api/scrape: a URL's readable text, optionally narrowed to an objective. */
export class ScrapeService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly fetcher: SafeFetcher,
    private readonly extractor: PageExtractor | null,
  ) {
    super(core);
  }

  /** Fetches and extracts a page; refuses (422) a page with nothing readable. */
  async readable(url: string): Promise<ReadablePage> {
    const page = await asDomainRefusal(() => readPage(this.fetcher, url));
    if (!page.text.trim()) throw nothingReadable(page.url);
    return page;
  }

  async scrape(input: unknown): Promise<ScrapeResult> {
    const { url, objective } = parseInput(scrapeSchema, input);
    const page = await this.readable(url);
    const wanted = objective?.trim();
    const text = wanted ? await this.narrow(page, wanted) : page.text;
    return { url: page.url, title: page.title, text };
  }

  /** With a language model, its extract; without one (or when it fails), the matching passages. */
  private async narrow(page: ReadablePage, objective: string): Promise<string> {
    if (this.extractor) {
      try {
        return await this.extractor.extract(page, objective);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        // The URL is not logged: query strings can carry secrets.
        this.logger.warn({ err: err.message }, 'scrape: the language model failed; returning matching passages');
      }
    }
    return matchingPassages(page.text, objective);
  }
}
