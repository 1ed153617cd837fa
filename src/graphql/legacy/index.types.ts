import { createUnionType, Field, Float, ID, ObjectType } from 'type-graphql';
import { createEmbeddingSchema, listEmbeddingsSchema, naturalKeySchema } from '../../domain/legacy/embeddings/embedding.schemas';
import { createIndexSchema, updateIndexSchema } from '../../domain/legacy/indexes/index.schemas';
import { listItemsSchema } from '../../domain/legacy/items/item.schemas';
import { inputType } from '../shared/input-type';
import { WebPageType } from '../web/web.types';

@ObjectType('Index', { description: 'A named context holding items; its controller (a DID) alone may change it' })
export class IndexType {
  @Field(() => ID, { description: 'Stream-id-like' })
  id: string;

  @Field()
  title: string;

  @Field(() => String, { nullable: true, description: 'CID of the signing function' })
  signerFunction: string | null;

  @Field({ description: 'secp256k1 public key (uncompressed hex); minted when none was given' })
  signerPublicKey: string;

  @Field({ name: 'controllerDID' })
  controllerDid: string;

  @Field({ description: 'Commit-id-like; changes on every update' })
  version: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true, description: 'Set once deleted (deletes are soft)' })
  deletedAt: Date | null;

  /** Resolved through the users loader. */
  controllerId: string;
}

@ObjectType('IntentNode', { description: 'An intent as an index item: its text, readable by whoever reads the index' })
export class IntentNodeType {
  @Field(() => ID)
  id: string;

  @Field()
  description: string;

  @Field()
  summary: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

export const IndexNodeUnion = createUnionType({
  name: 'IndexNode',
  description: 'What an item is: a web page or an intent',
  types: () => [WebPageType, IntentNodeType] as const,
  resolveType: (v) => ('url' in (v as object) ? WebPageType : IntentNodeType),
});

@ObjectType('IndexItem', { description: 'A node in an index' })
export class IndexItemType {
  @Field(() => ID, { description: 'Stream-id-like; the same for the same index and node' })
  id: string;

  @Field(() => ID)
  indexId: string;

  @Field(() => ID, { description: "The node's id" })
  itemId: string;

  @Field({ name: 'type', description: 'The model name of the node: WebPage or Intent' })
  itemType: string;

  @Field()
  version: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true })
  deletedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'When its default embedding last entered the vector index' })
  indexedAt: Date | null;
}

@ObjectType('IndexItemPage')
export class IndexItemPageType {
  @Field(() => [IndexItemType])
  items: IndexItemType[];

  @Field(() => String, { nullable: true, description: 'Pass back as cursor for the next page; null on the last' })
  cursor: string | null;
}

export const CreateIndexInput = inputType('CreateIndexInput', createIndexSchema);
export type CreateIndexInput = InstanceType<typeof CreateIndexInput>;

export const UpdateIndexInput = inputType('UpdateIndexInput', updateIndexSchema);
export type UpdateIndexInput = InstanceType<typeof UpdateIndexInput>;

export const IndexItemsInput = inputType('IndexItemsInput', listItemsSchema);
export type IndexItemsInput = InstanceType<typeof IndexItemsInput>;

@ObjectType('EmbeddingContext')
export class EmbeddingContextType {
  @Field(() => String, { nullable: true, description: 'The transformed text that was embedded; null: the raw document' })
  context: string | null;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field()
  category: string;
}

@ObjectType('Embedding', { description: "A vector of an item, named by (indexId, itemId, modelName, category)" })
export class EmbeddingType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  indexId: string;

  @Field(() => ID)
  itemId: string;

  @Field()
  modelName: string;

  @Field(() => [Float])
  vector: number[];

  @Field({ name: 'controllerDID' })
  controllerDid: string;

  @Field()
  version: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true })
  deletedAt: Date | null;

  category: string;
  context: string | null;
  description: string | null;
}

// The key's fields stay nullable: a missing one reaches validation, which names it.
const KEY = ['indexId', 'itemId', 'modelName', 'category'];
export const EmbeddingKeyInput = inputType('EmbeddingKeyInput', naturalKeySchema, { nullable: KEY });
export type EmbeddingKeyInput = InstanceType<typeof EmbeddingKeyInput>;

/** The natural key's fields plus what an embedding holds (create and update take the same fields). */
export const EmbeddingInput = inputType('EmbeddingInput', createEmbeddingSchema, { nullable: [...KEY, 'vector'] });
export type EmbeddingInput = InstanceType<typeof EmbeddingInput>;

export const EmbeddingsInput = inputType('EmbeddingsInput', listEmbeddingsSchema, { nullable: ['indexId', 'itemId'] });
export type EmbeddingsInput = InstanceType<typeof EmbeddingsInput>;
