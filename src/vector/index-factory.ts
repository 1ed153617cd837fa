import type { Config } from '../config';
import { LocalVectorIndex } from './local-index';
import { QdrantVectorIndex } from './qdrant-index';
import type { VectorIndex } from './vector-index';

/** Qdrant when QDRANT_URL is set, else the in-process index. */
export function vectorIndexFromConfig(config: Config): VectorIndex {
  if (config.QDRANT_URL) {
    return new QdrantVectorIndex({ url: config.QDRANT_URL, apiKey: config.QDRANT_API_KEY, collection: config.QDRANT_COLLECTION });
  }
  return new LocalVectorIndex({ mode: config.VECTOR_INDEX_MODE, exactMax: config.VECTOR_EXACT_MAX });
}

/**
 * The index of the earlier route group's items: the same kind as the intents' index, but its
 * own collection (Qdrant) or its own instance (in process), so item vectors never mix with
 * intent vectors. Its partitions are index ids.
 */
export function itemVectorIndexFromConfig(config: Config): VectorIndex {
  if (config.QDRANT_URL) {
    return new QdrantVectorIndex({ url: config.QDRANT_URL, apiKey: config.QDRANT_API_KEY, collection: config.QDRANT_ITEMS_COLLECTION });
  }
  return new LocalVectorIndex({ mode: config.VECTOR_INDEX_MODE, exactMax: config.VECTOR_EXACT_MAX });
}
