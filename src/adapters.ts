import type { Config } from './config';
import { OpenAIEmbedder } from './ai/embedder.openai';
import { providerFromConfig } from './ai/provider';
import { ProviderAnswerModel } from './ai/provider-answer-model';
import { ProviderCandidateJudge } from './ai/provider-candidate-judge';
import { ProviderCardWriter } from './ai/provider-card-writer';
import { ProviderIntentPreparer } from './ai/provider-intent-preparer';
import { ProviderNegotiatorPolicy } from './ai/provider-negotiator-policy';
import { ProviderPageExtractor } from './ai/provider-page-extractor';
import { ProviderSuggestionModel } from './ai/provider-suggestion-model';
import { ProviderTextEmbedder } from './ai/provider-text-embedder';
import { LocalIntentPreparer } from './domain/intents/local-intent-preparer';
import type { IntentPreparer } from './domain/intents/ports';
import { LocalTextEmbedder } from './domain/legacy/items/local-text-embedder';
import type { AnswerModel, TextEmbedder } from './domain/legacy/ports';
import { ExtractiveAnswerModel } from './domain/legacy/retrieval/extractive-answer-model';
import { LocalEmbedder } from './domain/matching/embedder.local';
import type { CandidateJudge, Embedder } from './domain/matching/ports';
import { LocalNegotiatorPolicy } from './domain/negotiations/local-negotiator-policy';
import type { NegotiatorPolicy } from './domain/negotiations/ports';
import { LocalCardWriter } from './domain/opportunities/local-card-writer';
import type { CardWriter } from './domain/opportunities/ports';
import type { PageExtractor, SuggestionModel } from './domain/web/ports';

/** One implementation of each domain port, chosen once from the configuration. */
export interface Adapters {
  intentPreparer: IntentPreparer;
  embedder: Embedder;
  /** Null without a provider: the local ranker's order stands. */
  candidateJudge: CandidateJudge | null;
  negotiatorPolicy: NegotiatorPolicy;
  cardWriter: CardWriter;
  textEmbedder: TextEmbedder;
  answerModel: AnswerModel;
  /** Null without a provider: enrichment and scrape answer from the pages alone. */
  suggestionModel: SuggestionModel | null;
  pageExtractor: PageExtractor | null;
}

/**
 * With a provider, its adapters (src/ai); without one, the rule-based local implementations of
 * src/domain. The provider's negotiator and card writer keep the local one to fall back on.
 */
export function adaptersFromConfig(config: Config): Adapters {
  const provider = providerFromConfig(config);
  if (!provider) {
    return {
      intentPreparer: new LocalIntentPreparer(),
      embedder: new LocalEmbedder(),
      candidateJudge: null,
      negotiatorPolicy: new LocalNegotiatorPolicy(),
      cardWriter: new LocalCardWriter(),
      textEmbedder: new LocalTextEmbedder(),
      answerModel: new ExtractiveAnswerModel(),
      suggestionModel: null,
      pageExtractor: null,
    };
  }
  return {
    intentPreparer: new ProviderIntentPreparer(provider),
    embedder: new OpenAIEmbedder(provider),
    candidateJudge: new ProviderCandidateJudge(provider),
    negotiatorPolicy: new ProviderNegotiatorPolicy(provider, new LocalNegotiatorPolicy()),
    cardWriter: new ProviderCardWriter(provider, new LocalCardWriter()),
    textEmbedder: new ProviderTextEmbedder(provider),
    answerModel: new ProviderAnswerModel(provider),
    suggestionModel: new ProviderSuggestionModel(provider),
    pageExtractor: new ProviderPageExtractor(provider),
  };
}
