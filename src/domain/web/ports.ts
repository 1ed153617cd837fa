import type { SourcePage, WrittenSuggestion } from './profile-suggestion.rules';

/**
 * A language model drafting profile fields from the pages a person points to. Without a
 * provider there is none, and enrichment builds the suggestion from the pages' own text; a
 * model that fails throws ProviderError and the same fallback serves.
 */
export interface SuggestionModel {
  suggest(name: string | null, pages: SourcePage[]): Promise<WrittenSuggestion>;
}

/**
 * A language model narrowing a page to what serves an objective. Without a provider (or when it
 * throws ProviderError) scrape returns the matching passages instead.
 */
export interface PageExtractor {
  extract(page: { url: string; title: string | null; text: string }, objective: string): Promise<string>;
}
