import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum ImageKindEnum {
  AVATAR = 'avatars',
  NETWORK_IMAGE = 'network-images',
}

registerEnumType(ImageKindEnum, { name: 'ImageKind', description: 'Which upload folder: avatars or network images' });

@ObjectType('StoredImage')
export class StoredImageType {
  @Field(() => ImageKindEnum)
  kind: ImageKindEnum;

  @Field(() => ID, { description: 'The uploader' })
  userId: string;

  @Field()
  filename: string;

  @Field({ description: 'Where GET serves the bytes, with no credential' })
  url: string;

  @Field({ description: 'image/png, image/jpeg, image/gif or image/webp, from the bytes' })
  contentType: string;

  @Field(() => Int, { description: 'Bytes' })
  size: number;

  @Field()
  createdAt: Date;
}
