import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './accounts/account.resolver';
import { AccountDidResolver } from './auth/account-did.resolver';
import { ApiKeysResolver } from './auth/api-keys.resolver';
import { SessionsResolver } from './auth/sessions.resolver';
import { SignInResolver } from './auth/sign-in.resolver';
import { WebPageResolver, WebResolver } from './web/web.resolver';
import { IntentResolver } from './intents/intent.resolver';
import { MembershipResolver } from './networks/membership.resolver';
import { JoinRequestFields, NetworkIntentFields, NetworkMemberFields } from './networks/network-links.resolver';
import { NetworkRequestResolver } from './networks/network-request.resolver';
import { NetworkResolver } from './networks/network.resolver';
import { MatchingResolver } from './matching/matching.resolver';
import { CounterpartyGraphLinks, IntentGraphLinks } from './links/graph-links.resolver';
import { MiscResolver } from './accounts/misc.resolver';
import { AgentResolver } from './agents/agent.resolver';
import { ImageResolver } from './storage/image.resolver';
import { IndexResolver } from './legacy/index.resolver';
import { IndexItemResolver } from './legacy/item.resolver';
import { EmbeddingResolver } from './legacy/embedding.resolver';
import { PrivateConversationResolver } from './legacy/private-conversation.resolver';
import { CompletionResolver } from './legacy/completion.resolver';
import { DidProfileResolver } from './legacy/did-profile.resolver';
import { ConversationResolver, ParticipantFields } from './conversations/conversation.resolver';
import { IntentOpportunityLinks, OpportunityResolver } from './opportunities/opportunity.resolver';
import { NegotiationResolver } from './negotiations/negotiation.resolver';
import { AgentThreadResolver } from './conversations/agent-thread.resolver';
import { EventResolver } from './events/event.resolver';

/** Every resolver in the schema; add new ones here (one line each, in the imports and the array). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  AccountResolver,
  SignInResolver,
  ApiKeysResolver,
  SessionsResolver,
  AccountDidResolver,
  WebResolver,
  WebPageResolver,
  IntentResolver,
  NetworkResolver,
  MembershipResolver,
  NetworkRequestResolver,
  NetworkMemberFields,
  NetworkIntentFields,
  JoinRequestFields,
  MatchingResolver,
  IntentGraphLinks,
  CounterpartyGraphLinks,
  MiscResolver,
  AgentResolver,
  ImageResolver,
  IndexResolver,
  IndexItemResolver,
  EmbeddingResolver,
  PrivateConversationResolver,
  CompletionResolver,
  DidProfileResolver,
  OpportunityResolver,
  IntentOpportunityLinks,
  NegotiationResolver,
  ConversationResolver,
  ParticipantFields,
  AgentThreadResolver,
  EventResolver,
];
