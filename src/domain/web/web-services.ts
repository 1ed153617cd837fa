import { SafeFetcher } from './safe-fetcher';
import type { CoreDeps } from '../shared/domain-service';
import { EnrichmentService } from './enrichment.service';
import type { PageExtractor, SuggestionModel } from './ports';
import { ScrapeService } from './scrape.service';
import { WebPageService } from './web-page.service';

/** The web area: one fetcher shared by scraping, enrichment and web pages. */
export interface WebServices {
  /** The only way any area should read a URL from the internet. */
  fetcher: SafeFetcher;
  scrape: ScrapeService;
  enrichment: EnrichmentService;
  pages: WebPageService;
}

/** The models are null without a provider: scrape and enrichment then answer from the pages alone. */
export function createWebServices(core: CoreDeps, models: { suggestion: SuggestionModel | null; extractor: PageExtractor | null }): WebServices {
  const { config, logger } = core;
  if (config.WEB_FETCH_ALLOW_LOOPBACK_UNSAFE) {
    logger.warn('WEB_FETCH_ALLOW_LOOPBACK_UNSAFE is on: the web fetcher may reach loopback addresses; never use this in production');
  }
  const fetcher = new SafeFetcher({
    timeoutMs: config.WEB_FETCH_TIMEOUT_MS,
    maxBytes: config.WEB_FETCH_MAX_BYTES,
    allowLoopback: config.WEB_FETCH_ALLOW_LOOPBACK_UNSAFE,
  });
  const scrape = new ScrapeService(core, fetcher, models.extractor);
  return {
    fetcher,
    scrape,
    enrichment: new EnrichmentService(core, fetcher, models.suggestion),
    pages: new WebPageService(core, scrape),
  };
}
