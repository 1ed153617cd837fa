import { Field, ID, Int, ObjectType } from 'type-graphql';
import {
  apiKeyCreateSchema,
  deviceApproveSchema,
  deviceTokenSchema,
  emailStartSchema,
  emailVerifySchema,
  sessionIdSchema,
  siweVerifySchema,
} from '../../domain/auth/auth.schemas';
import { inputType } from '../shared/input-type';
import { AccountType } from '../accounts/user.types';

@ObjectType('AuthPayload', { description: 'A new session: send `token` as `Authorization: Bearer <token>`' })
export class AuthPayloadType {
  @Field()
  token: string;

  @Field(() => AccountType)
  user: AccountType;
}

@ObjectType('SiweNonce')
export class SiweNonceType {
  @Field({ description: 'Put it in the Nonce field of the SIWE message; single use' })
  nonce: string;

  @Field()
  expiresAt: Date;
}

export const SiweVerifyInput = inputType('SiweVerifyInput', siweVerifySchema);
export type SiweVerifyInput = InstanceType<typeof SiweVerifyInput>;

export const EmailStartInput = inputType('EmailStartInput', emailStartSchema);
export type EmailStartInput = InstanceType<typeof EmailStartInput>;

export const EmailVerifyInput = inputType('EmailVerifyInput', emailVerifySchema);
export type EmailVerifyInput = InstanceType<typeof EmailVerifyInput>;

@ObjectType('DeviceAuthorization', { description: 'RFC 8628 device authorization response' })
export class DeviceAuthorizationType {
  @Field({ description: 'Secret: the command line polls with it and never shows it' })
  deviceCode: string;

  @Field({ description: 'Shown to the person, who approves it on the approval page' })
  userCode: string;

  @Field({ description: 'The approval page, where the person enters the user code' })
  verificationUri: string;

  @Field({ description: 'The approval page with the user code filled in (RFC 8628 verification_uri_complete)' })
  verificationUriComplete: string;

  @Field(() => Int, { description: 'Seconds until the codes expire' })
  expiresIn: number;

  @Field(() => Int, { description: 'Seconds to wait between polls' })
  interval: number;
}

export const DeviceApproveInput = inputType('DeviceApproveInput', deviceApproveSchema);
export type DeviceApproveInput = InstanceType<typeof DeviceApproveInput>;

export const DeviceTokenInput = inputType('DeviceTokenInput', deviceTokenSchema);
export type DeviceTokenInput = InstanceType<typeof DeviceTokenInput>;

@ObjectType('ApiKey', { description: 'An API key as listed; the key itself is shown only at creation' })
export class ApiKeyType {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => ID, { nullable: true, description: 'Set when the key acts as one of your agents' })
  agentId: string | null;

  @Field()
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'When the key was last used; null until its first use. Written within about a second of a request, at most once a minute.' })
  lastUsedAt: Date | null;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyType {
  @Field({ description: 'The key (x-api-key); shown this once' })
  key: string;

  @Field(() => ApiKeyType)
  apiKey: ApiKeyType;
}

export const ApiKeyCreateInput = inputType('ApiKeyCreateInput', apiKeyCreateSchema, { types: { agentId: ID } });
export type ApiKeyCreateInput = InstanceType<typeof ApiKeyCreateInput>;

@ObjectType('Device', { description: 'A live session of the signed-in user' })
export class DeviceType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'web or device (command line)' })
  kind: string;

  @Field({ description: 'How the session was opened: siwe, email or device' })
  provider: string;

  @Field()
  userAgent: string;

  @Field()
  ip: string;

  @Field()
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'When the session was last used, signing in included. Written within about a second of a request, at most once a minute.' })
  lastUsedAt: Date | null;

  @Field()
  expiresAt: Date;

  @Field({ description: 'The session making this request' })
  current: boolean;
}

export const RevokeDeviceInput = inputType('RevokeDeviceInput', sessionIdSchema, { types: { sessionId: ID } });
export type RevokeDeviceInput = InstanceType<typeof RevokeDeviceInput>;
