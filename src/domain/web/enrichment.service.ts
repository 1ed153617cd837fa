import { WebFetchError } from './fetch-errors';
import { readPage } from './page-reader';
import type { SafeFetcher } from './safe-fetcher';
import { normalizeUrl } from './url-normalizer';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { ProviderError } from '../shared/ports';
import { parseInput } from '../shared/validation';
import { suggestedSocials, suggestionFromPages, type SocialLinkValue, type SourcePage, type WrittenSuggestion } from './profile-suggestion.rules';
import { SOCIAL_LABELS, socialProfileUrl } from './social-links.rules';
import type { SuggestionModel } from './ports';
import { enrichmentSchema, type EnrichmentRequest } from './web.schemas';

export interface EnrichmentResult {
  suggestion: WrittenSuggestion & { socials: SocialLinkValue[] };
  sources: {
    read: Array<{ label: string; url: string }>;
    failed: Array<{ label: string; url: string; reason: string; detail: string }>;
  };
}

interface Source {
  label: string;
  /** What the caller sent, for reporting a source that is not even a URL. */
  given: string;
  url: string | null;
}

/**
 * POST /api/enrichment/enrich: reads the pages a person points to (their sites and social
 * profiles) through the safe fetcher and suggests profile fields. Saves nothing; reports which
 * sources were read and why the others failed.
 */
export class EnrichmentService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly fetcher: SafeFetcher,
    private readonly model: SuggestionModel | null,
  ) {
    super(core);
  }

  async enrich(input: unknown): Promise<EnrichmentResult> {
    const req = parseInput(enrichmentSchema, input);
    const name = req.name?.trim() || null;
    const sources = this.sourcesOf(req);
    const given: SocialLinkValue[] = [];
    const failed: EnrichmentResult['sources']['failed'] = [];
    const toRead: Array<Source & { url: string }> = [];
    const seen = new Set<string>();
    for (const s of sources) {
      if (!s.url) {
        failed.push({ label: s.label, url: s.given, reason: 'invalid_url', detail: `The ${s.label} value is neither a URL nor a handle` });
        continue;
      }
      let url: string;
      try {
        url = normalizeUrl(s.url).href;
      } catch (err) {
        if (!(err instanceof WebFetchError)) throw err;
        failed.push({ label: s.label, url: s.given, reason: err.reason, detail: err.detail });
        continue;
      }
      if (seen.has(url)) continue;
      seen.add(url);
      given.push({ label: s.label, value: url });
      toRead.push({ ...s, url });
    }

    const outcomes = await Promise.all(
      toRead.map(async (s) => {
        try {
          const page = await readPage(this.fetcher, s.url);
          if (!page.text.trim() && !page.description) {
            return { failed: { label: s.label, url: s.url, reason: 'no_readable_content', detail: 'The page has no readable text' } };
          }
          return { read: { label: s.label, url: s.url, page } satisfies SourcePage };
        } catch (err) {
          if (!(err instanceof WebFetchError)) throw err;
          return { failed: { label: s.label, url: s.url, reason: err.reason, detail: err.detail } };
        }
      }),
    );
    const pages: SourcePage[] = [];
    for (const o of outcomes) {
      if (o.read) pages.push(o.read);
      else if (o.failed) failed.push(o.failed);
    }

    const written = await this.write(name, pages);
    return {
      suggestion: { ...written, socials: suggestedSocials(given, pages) },
      sources: { read: pages.map((p) => ({ label: p.label, url: p.url })), failed },
    };
  }

  private sourcesOf(req: EnrichmentRequest): Source[] {
    const out: Source[] = (req.websites ?? []).map((w) => ({ label: 'website', given: w, url: w }));
    for (const label of SOCIAL_LABELS) {
      const value = req[label]?.trim();
      if (value) out.push({ label, given: value, url: socialProfileUrl(label, value) });
    }
    return out;
  }

  /** With a language model, its suggestion; without one (or when it fails), the pages' own text. */
  private async write(name: string | null, pages: SourcePage[]): Promise<WrittenSuggestion> {
    if (pages.length === 0) return { intro: null, location: null, intents: [] };
    if (this.model) {
      try {
        return await this.model.suggest(name, pages);
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        this.logger.warn({ err: err.message }, 'enrichment: the language model failed; building the suggestion from the pages');
      }
    }
    return suggestionFromPages(name, pages);
  }
}
