import { Field, InputType, ObjectType } from 'type-graphql';

@InputType('CompletionMessageInput')
export class CompletionMessageInput {
  @Field(() => String, { nullable: true, description: 'user, assistant or system' })
  role?: string | null;

  @Field(() => String, { nullable: true })
  content?: string | null;
}

@InputType('CompletionInput')
export class CompletionInput {
  @Field(() => [CompletionMessageInput], { nullable: true, description: 'A conversation so far; or prompt' })
  messages?: CompletionMessageInput[] | null;

  @Field(() => String, { nullable: true, description: 'A single question; or messages' })
  prompt?: string | null;

  @Field(() => [String], { nullable: true, description: 'Index ids or DIDs (required)' })
  sources?: string[] | null;
}

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

@InputType('DidProfileInput')
export class DidProfileInput {
  @Field(() => String, { nullable: true, description: 'Required' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Required' })
  bio?: string | null;

  @Field(() => String, { nullable: true, description: 'Required: a CID from upload_avatar, or empty to remove' })
  avatar?: string | null;
}

@ObjectType('AvatarUpload')
export class AvatarUploadType {
  @Field({ description: 'CIDv1 (raw, sha2-256) of the bytes' })
  cid: string;

  @Field({ description: 'Where the image is served' })
  url: string;
}
