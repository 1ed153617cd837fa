import { Field, ObjectType } from 'type-graphql';
import { chatMessageSchema, completionSchema } from '../../domain/legacy/completions/completion.schemas';
import { didProfileSchema } from '../../domain/legacy/profile/did-profile.schemas';
import { inputType } from '../shared/input-type';

/** role is text in GraphQL; missing fields reach validation, which names them in its 400. */
export const CompletionMessageInput = inputType('CompletionMessageInput', chatMessageSchema, { types: { role: String }, nullable: ['role', 'content'] });
export type CompletionMessageInput = InstanceType<typeof CompletionMessageInput>;

export const CompletionInput = inputType('CompletionInput', completionSchema, { types: { messages: CompletionMessageInput, sources: [String] } });
export type CompletionInput = InstanceType<typeof CompletionInput>;

@ObjectType('Completion')
export class CompletionType {
  @Field()
  completion: string;
}

@ObjectType('DidProfile', { description: "A DID's profile: the account's name, intro (bio) and avatar CID" })
export class DidProfileType {
  @Field({ name: 'controllerDID' })
  controllerDID: string;

  @Field()
  name: string;

  @Field()
  bio: string;

  @Field(() => String, { nullable: true, description: 'CID of an image uploaded through upload_avatar' })
  avatar: string | null;
}

// Missing fields reach validation, which names them in the legacy API's words.
export const DidProfileInput = inputType('DidProfileInput', didProfileSchema, { nullable: ['name', 'bio', 'avatar'] });
export type DidProfileInput = InstanceType<typeof DidProfileInput>;

@ObjectType('AvatarUpload')
export class AvatarUploadType {
  @Field({ description: 'CIDv1 (raw, sha2-256) of the bytes' })
  cid: string;

  @Field({ description: 'Where the image is served' })
  url: string;
}
