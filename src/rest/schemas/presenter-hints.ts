import { z } from 'zod';
import { ACTIONS, BLOCKED_REASONS, OUTCOMES } from '../../domain/negotiations/negotiation.rules';
import { joinPolicySchema, roleSchema } from '../../domain/networks/network.schemas';
import { ALL_STATUSES } from '../../domain/opportunities/opportunity.schemas';
import { LoggedFrame } from './events.schemas';
import { timestamp, uuid } from './schema-kit';

/**
 * What the REST contract says about an output that its GraphQL type cannot
 * (docs/adr/0126-one-presenter-per-output.md). Everything else comes from the executed schema.
 */

/**
 * Each scalar's JSON shape. GraphQL's ID is a uuid in every REST read but the earlier route
 * group's (a Presenter option) and the fields hinted below.
 */
export const scalars: Record<string, () => z.ZodType> = {
  ID: uuid,
  String: () => z.string(),
  Boolean: () => z.boolean(),
  Int: () => z.number().int(),
  Float: () => z.number(),
  DateTimeISO: timestamp,
  JSON: () => z.unknown(),
  JSONObject: () => z.record(z.string(), z.unknown()),
};

/** GraphQL types that are one named schema of the domain (a component of the OpenAPI document). */
export const typeHints: Record<string, z.ZodType> = {
  JoinPolicy: joinPolicySchema,
  NetworkRole: roleSchema,
};

/**
 * `Type.field` → the value's JSON shape (list and null still from GraphQL), where REST says
 * more: a value set GraphQL types as text, a uuid GraphQL types as text, an id that is no uuid.
 */
export const fieldHints: Record<string, z.ZodType> = {
  // A web page node is one of the earlier route group's items, whose ids are text.
  'WebPage.id': z.string(),
  // Ids of a list the service declares (the questions of a draft, the sign-in methods), not rows.
  'RecoveryField.id': z.string(),
  'AuthProvider.id': z.string(),
  // Value sets GraphQL types as text (the contract's literal unions).
  'Agent.type': z.enum(['system', 'external']),
  'Agent.status': z.enum(['active', 'inactive']),
  'PrivateConversationFrame.channel': z.enum(['chunk', 'end', 'update']),
  'Opportunity.status': z.enum(ALL_STATUSES),
  'Negotiation.outcome': z.enum(OUTCOMES),
  'NegotiationTurn.action': z.enum(ACTIONS),
  'NegotiationProtocol.availableActions': z.enum(ACTIONS),
  'NegotiationProtocol.blockedReason': z.enum(BLOCKED_REASONS),
  // Frames are written as stored (GraphQL JSON): their shapes are the contract's (events.schemas.ts).
  'EventLog.events': LoggedFrame,
};

/**
 * A component's description where it is not its GraphQL type's: a fragment is REST's view of a
 * type (fewer fields, or more), and GraphQL has no description for a fragment.
 */
export const componentDescriptions: Record<string, string> = {
  Intent: 'An intent (single read: with its owner)',
  PublicNetwork: 'What anyone may see of a network',
  ListedNetwork: "A public network with the caller's role",
  Opportunity: 'An opportunity card with the single-read fields',
  Negotiation: "A negotiation with its turns and the reader's protocol",
  Account: 'The signed-in account',
  PublicUser: 'A user as anyone may read them',
};
