import { z } from 'zod';
import { joinPolicySchema, roleSchema } from '../../domain/networks/network.schemas';
import { named, nullable, timestamp, uuid } from './schema-kit';

/** The domain's enums, named there (one component each in the OpenAPI document). */
export const JoinPolicy = joinPolicySchema;
export const NetworkRole = roleSchema;
const Person = z.object({ id: uuid(), name: z.string(), avatar: z.string() });

const publicFields = {
  id: uuid(),
  title: z.string(),
  prompt: nullable(z.string()),
  imageUrl: nullable(z.string()),
  joinPolicy: JoinPolicy,
  memberCount: z.number().int(),
  owner: nullable(Person),
};

export const PublicNetwork = named('PublicNetwork', z.object(publicFields), 'What anyone may see of a network');
export const ListedNetwork = named('ListedNetwork', z.object({ ...publicFields, role: nullable(NetworkRole) }), 'A public network with the caller\'s role');
export const Network = named(
  'Network',
  z.object({
    ...publicFields,
    role: nullable(NetworkRole),
    shareCode: nullable(z.string().meta({ description: 'Members only' })),
    invitationCode: nullable(z.string().meta({ description: 'Owners only' })),
  }),
);

export const Member = named(
  'NetworkMember',
  z.object({ id: uuid().meta({ description: "The member's user id" }), name: z.string(), email: nullable(z.string()), avatar: z.string(), permissions: z.array(NetworkRole) }),
);

export const JoinRequest = named(
  'JoinRequest',
  z.object({
    userId: uuid(),
    user: nullable(z.object({ id: uuid(), name: z.string(), avatar: z.string(), intro: z.string() })),
    status: z.enum(['pending', 'approved', 'declined']),
    createdAt: timestamp(),
    reviewedAt: nullable(timestamp()),
  }),
);

export const NetworkRequest = named(
  'NetworkRequest',
  z.object({
    id: uuid(),
    title: z.string(),
    status: z.enum(['pending', 'approved', 'dismissed']),
    purpose: nullable(z.string()),
    audience: nullable(z.string()),
    expectedSize: nullable(z.string()),
    notes: nullable(z.string()),
    joinPolicy: nullable(JoinPolicy),
    networkId: nullable(uuid()),
    requester: nullable(Person),
    submittedAt: timestamp(),
    reviewedAt: nullable(timestamp()),
  }),
);

export const NetworkIntent = named(
  'NetworkIntent',
  z.object({ id: uuid(), userId: uuid(), payload: z.string(), summary: z.string(), status: z.string(), createdAt: timestamp(), updatedAt: timestamp() }),
);

export const MembershipEnd = z.object({ success: z.boolean(), networkDeleted: z.boolean().meta({ description: 'The last member left: the network was deleted' }) });
