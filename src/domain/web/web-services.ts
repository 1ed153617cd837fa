import type { OpenAIClient } from '../../ai/openai-client';
import { SafeFetcher } from '../../web/safe-fetcher';
import type { CoreDeps } from '../shared/domain-service';
import { EnrichmentService } from './enrichment.service';
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

export function createWebServices(core: CoreDeps, provider: OpenAIClient | null): WebServices {
  const { config, logger } = core;
  if (config.WEB_FETCH_ALLOW_LOOPBACK_UNSAFE) {
    logger.warn('WEB_FETCH_ALLOW_LOOPBACK_UNSAFE is on: the web fetcher may reach loopback addresses; never use this in production');
  }
  const fetcher = new SafeFetcher({
    timeoutMs: config.WEB_FETCH_TIMEOUT_MS,
    maxBytes: config.WEB_FETCH_MAX_BYTES,
    allowLoopback: config.WEB_FETCH_ALLOW_LOOPBACK_UNSAFE,
  });
  const scrape = new ScrapeService(core, fetcher, provider);
  return {
    fetcher,
    scrape,
    enrichment: new EnrichmentService(core, fetcher, provider),
    pages: new WebPageService(core, scrape),
  };
}
