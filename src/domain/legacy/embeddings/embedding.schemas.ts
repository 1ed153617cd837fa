import { z } from 'zod';

export const VECTOR_MAX_DIMENSIONS = 16_384;
export const EMBEDDINGS_DEFAULT_TAKE = 24;
export const EMBEDDINGS_MAX_TAKE = 100;

const required = (what: string) => ({ error: (i: { input: unknown }) => (i.input === undefined || i.input === null ? `${what} is required` : `${what} must be a string`) });

/** An embedding is named by (indexId, itemId, modelName, category) (decisions.md section 5). */
export const naturalKeySchema = z.object({
  indexId: z.string(required('indexId')).trim().min(1, 'indexId is required'),
  itemId: z.string(required('itemId')).trim().min(1, 'itemId is required'),
  modelName: z.string(required('modelName')).trim().min(1, 'modelName is required').max(256, 'At most 256 characters'),
  category: z.string(required('category')).trim().min(1, 'category is required').max(128, 'At most 128 characters'),
});

export const vectorSchema = z
  .array(z.number().refine(Number.isFinite, 'Every component must be a finite number'), {
    error: (i) => (i.input === undefined ? 'vector is required' : 'vector must be an array of numbers'),
  })
  .min(1, 'A vector has at least one component')
  .max(VECTOR_MAX_DIMENSIONS, `At most ${VECTOR_MAX_DIMENSIONS} components`);

const context = z.string().max(200_000, 'At most 200000 characters').nullish();
const description = z.string().max(2000, 'At most 2000 characters').nullish();

export const createEmbeddingSchema = naturalKeySchema.extend({
  context,
  description,
  // null reads as missing, so both answer "vector is required".
  vector: z.preprocess((v) => v ?? undefined, vectorSchema).meta({ description: 'Any dimension, the same for every vector of one model name' }),
});

/** The key names the embedding; the vector, context and description sent replace what it had. */
export const updateEmbeddingSchema = naturalKeySchema.extend({ vector: vectorSchema.nullish(), context, description });

export const listEmbeddingsSchema = z.object({
  indexId: z.string(required('indexId')).trim().min(1, 'indexId is required').meta({ description: 'Required' }),
  itemId: z.string(required('itemId')).trim().min(1, 'itemId is required').meta({ description: 'Required' }),
  modelName: z.string().trim().max(256).nullish(),
  categories: z.array(z.string().trim().min(1).max(128)).max(50).nullish(),
  skip: z.number().int().min(0, 'At least 0').max(100_000).nullish(),
  take: z.number().int().min(1, 'At least 1').max(EMBEDDINGS_MAX_TAKE, `At most ${EMBEDDINGS_MAX_TAKE}`).nullish().meta({ description: 'Default 24, at most 100' }),
});
