import { createUnionType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
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

@InputType('CreateIndexInput')
export class CreateIndexInput {
  @Field(() => String, { nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'Omitted: a secp256k1 key pair is generated' })
  signerPublicKey?: string | null;

  @Field(() => String, { nullable: true, description: 'Must parse as a CID' })
  signerFunction?: string | null;
}

@InputType('UpdateIndexInput')
export class UpdateIndexInput {
  @Field(() => String, { nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'null removes it' })
  signerFunction?: string | null;
}

@InputType('IndexItemsInput')
export class IndexItemsInput {
  @Field(() => String, { nullable: true, description: 'Ranks items by meaning (semantic search)' })
  query?: string | null;

  @Field(() => String, { nullable: true })
  cursor?: string | null;

  @Field(() => Int, { nullable: true, description: 'Default 24, at most 100' })
  limit?: number | null;
}

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

@InputType('EmbeddingKeyInput')
export class EmbeddingKeyInput {
  @Field(() => String, { nullable: true })
  indexId?: string | null;

  @Field(() => String, { nullable: true })
  itemId?: string | null;

  @Field(() => String, { nullable: true })
  modelName?: string | null;

  @Field(() => String, { nullable: true })
  category?: string | null;
}

/** The natural key's fields plus what an embedding holds (create and update take the same fields). */
@InputType('EmbeddingInput')
export class EmbeddingInput extends EmbeddingKeyInput {
  @Field(() => String, { nullable: true })
  context?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [Float], { nullable: true, description: 'Any dimension, the same for every vector of one model name' })
  vector?: number[] | null;
}

@InputType('EmbeddingsInput')
export class EmbeddingsInput {
  @Field(() => String, { nullable: true, description: 'Required' })
  indexId?: string | null;

  @Field(() => String, { nullable: true, description: 'Required' })
  itemId?: string | null;

  @Field(() => String, { nullable: true })
  modelName?: string | null;

  @Field(() => [String], { nullable: true })
  categories?: string[] | null;

  @Field(() => Int, { nullable: true })
  skip?: number | null;

  @Field(() => Int, { nullable: true, description: 'Default 24, at most 100' })
  take?: number | null;
}
