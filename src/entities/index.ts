import { Agent } from './agent.entity';
import { ApiKey } from './api-key.entity';
import { EventCounter, EventRecord } from './event.entity';
import { Intent } from './intent.entity';
import { IntentNetwork } from './intent-network.entity';
import { IntentVector } from './intent-vector.entity';
import { Network } from './network.entity';
import { NetworkMember } from './network-member.entity';
import { NetworkInvitationAcceptance } from './network-invitation-acceptance.entity';
import { NetworkJoinRequest } from './network-join-request.entity';
import { NetworkRequest } from './network-request.entity';
import { Session } from './session.entity';
import { Subscriber } from './subscriber.entity';
import { User } from './user.entity';
import { SiweNonce } from './siwe-nonce.entity';
import { EmailCode } from './email-code.entity';
import { DeviceLogin } from './device-login.entity';
import { WalletIdentity } from './wallet-identity.entity';
import { WebPage } from './web-page.entity';
import { LegacyIndex } from './legacy-index.entity';
import { LegacyIndexItem } from './legacy-index-item.entity';
import { LegacyEmbedding } from './legacy-embedding.entity';
import { LegacyEmbeddingModel } from './legacy-embedding-model.entity';
import { LegacyIndexEmbeddingModel } from './legacy-index-embedding-model.entity';
import { PrivateConversation } from './private-conversation.entity';
import { PrivateMessage } from './private-message.entity';
import { AvatarCid } from './avatar-cid.entity';
import { Opportunity } from './opportunity.entity';
import { Negotiation, NegotiationQuestion, NegotiationTurn } from './negotiation.entity';
import { Conversation } from './conversation.entity';
import { ConversationParticipant } from './conversation-participant.entity';
import { ConversationMessage } from './conversation-message.entity';
import { AgentQuestion } from './agent-question.entity';
import { AgentThreadEntry } from './agent-thread-entry.entity';
import { EventConsumer, EventConsumerClaim } from './event-consumer.entity';

/** Every entity the ORM knows; add new ones here (one line each). */
export const entities = [
  User,
  Session,
  ApiKey,
  Agent,
  Network,
  NetworkMember,
  Intent,
  IntentNetwork,
  EventRecord,
  EventCounter,
  SiweNonce,
  EmailCode,
  DeviceLogin,
  WalletIdentity,
  WebPage,
  NetworkJoinRequest,
  NetworkInvitationAcceptance,
  NetworkRequest,
  IntentVector,
  Subscriber,
  LegacyIndex,
  LegacyIndexItem,
  LegacyEmbedding,
  LegacyEmbeddingModel,
  LegacyIndexEmbeddingModel,
  PrivateConversation,
  PrivateMessage,
  AvatarCid,
  Opportunity,
  Negotiation,
  NegotiationTurn,
  NegotiationQuestion,
  Conversation,
  ConversationParticipant,
  ConversationMessage,
  AgentQuestion,
  AgentThreadEntry,
  EventConsumer,
  EventConsumerClaim,
];
