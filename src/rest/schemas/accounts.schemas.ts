import { z } from 'zod';
import { named, nullable, SocialLink, timestamp, uuid } from './schema-kit';

const publicFields = {
  id: uuid(),
  name: z.string(),
  intro: z.string(),
  avatar: z.string(),
  location: z.string(),
  socials: z.array(SocialLink),
};

/** core-api.md, User: the public read. */
export const PublicUser = named('PublicUser', z.object({ ...publicFields, createdAt: timestamp(), updatedAt: timestamp() }), 'A user as anyone may read them');
/** The batch read's user. */
export const BatchUser = named('BatchUser', z.object(publicFields));

const accountFields = {
  ...publicFields,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  email: nullable(z.string()),
  walletAddress: nullable(z.string()),
  timezone: z.string(),
  notificationPreferences: z.object({ opportunity: z.boolean(), morningBrief: z.boolean() }),
  profileConfirmedAt: nullable(timestamp()),
  onboardingCompletedAt: nullable(timestamp()),
};

/** The signed-in account (GET /api/auth/me). */
export const Account = named('Account', z.object(accountFields), 'The signed-in account');
/** The user of `{ token, user }`: the account and its wallet DID. */
export const SignedInUser = named(
  'SignedInUser',
  z.object({ ...accountFields, did: nullable(z.string().meta({ description: 'did:pkh:eip155:<chainId>:<address> for a wallet account' })) }),
);
export const AuthPayload = named('AuthPayload', z.object({ token: z.string().meta({ description: 'Send as Authorization: Bearer <token>' }), user: SignedInUser }));

export const Agent = named(
  'Agent',
  z.object({
    id: uuid(),
    ownerId: uuid(),
    name: z.string(),
    type: z.enum(['system', 'external']),
    status: z.enum(['active', 'inactive']),
    handleNegotiations: z.boolean().meta({ description: 'True on the agent holding the negotiation seat' }),
    lastSeenAt: nullable(timestamp()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const ApiKey = named('ApiKey', z.object({ id: uuid(), name: z.string(), createdAt: timestamp(), lastUsedAt: nullable(timestamp()) }));

export const Device = named(
  'Device',
  z.object({
    id: uuid(),
    kind: z.string().meta({ description: 'web or device (command line)' }),
    provider: z.string().meta({ description: 'siwe, email or device' }),
    userAgent: z.string(),
    ip: z.string(),
    createdAt: timestamp(),
    lastUsedAt: nullable(timestamp()),
    expiresAt: timestamp(),
    current: z.boolean(),
  }),
);
