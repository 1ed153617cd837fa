import { Field, ID, ObjectType } from 'type-graphql';
import type { JoinPolicy } from '../../entities/network.entity';
import type { NetworkRole } from '../../entities/network-member.entity';
import type { JoinRequestStatus } from '../../entities/network-join-request.entity';
import type { NetworkRequestStatus } from '../../entities/network-request.entity';
import type { JoinStatus } from '../../domain/networks/membership.service';
import { PaginationType } from '../shared/pagination.types';
import { JoinPolicyEnum, JoinRequestStatusEnum, JoinStatusEnum, NetworkRequestStatusEnum, NetworkRoleEnum } from './network.enums';

/**
 * A network. Derived and access-dependent fields (memberCount, role, owner, codes, members,
 * intents, join requests) are field resolvers in network.resolver.ts.
 */
@ObjectType('Network')
export class NetworkType {
  @Field(() => ID)
  id: string;

  @Field()
  title: string;

  @Field(() => String, { nullable: true })
  prompt: string | null;

  @Field(() => String, { nullable: true })
  imageUrl: string | null;

  @Field(() => JoinPolicyEnum)
  joinPolicy: JoinPolicy;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('NetworkPage')
export class NetworkPageType {
  @Field(() => [NetworkType])
  networks: NetworkType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

/** A member as other members see them; `id` is the user's id. */
@ObjectType('NetworkMember')
export class NetworkMemberType {
  @Field(() => ID, { description: "The member's user id" })
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  email: string | null;

  @Field()
  avatar: string;

  @Field(() => NetworkRoleEnum)
  role: NetworkRole;

  @Field()
  joinedAt: Date;
}

@ObjectType('NetworkMemberPage')
export class NetworkMemberPageType {
  @Field(() => [NetworkMemberType])
  members: NetworkMemberType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

/** An intent as the members of a network see it (no source fields: those belong to its owner). */
@ObjectType('NetworkIntent')
export class NetworkIntentType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  userId: string;

  @Field()
  payload: string;

  @Field()
  summary: string;

  @Field()
  status: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field({ description: 'When it was shared into this network' })
  sharedAt: Date;
}

@ObjectType('NetworkIntentPage')
export class NetworkIntentPageType {
  @Field(() => [NetworkIntentType])
  intents: NetworkIntentType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('JoinRequest')
export class JoinRequestType {
  @Field(() => ID)
  networkId: string;

  @Field(() => ID)
  userId: string;

  @Field(() => JoinRequestStatusEnum)
  status: JoinRequestStatus;

  @Field()
  createdAt: Date;

  @Field(() => Date, { nullable: true })
  reviewedAt: Date | null;
}

@ObjectType('JoinRequestPage')
export class JoinRequestPageType {
  @Field(() => [JoinRequestType])
  joinRequests: JoinRequestType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('JoinNetworkResult')
export class JoinNetworkResultType {
  @Field(() => JoinStatusEnum)
  status: JoinStatus;

  @Field(() => NetworkType)
  network: NetworkType;

  @Field(() => JoinRequestType, { nullable: true, description: 'The waiting request, when the network is invite_only' })
  joinRequest: JoinRequestType | null;
}

@ObjectType('LeaveNetworkResult')
export class LeaveNetworkResultType {
  @Field()
  success: boolean;

  @Field({ description: 'True when the caller was the only member: the network was deleted' })
  networkDeleted: boolean;
}

@ObjectType('AddNetworkMemberResult')
export class AddNetworkMemberResultType {
  @Field(() => NetworkMemberType)
  member: NetworkMemberType;

  @Field()
  message: string;

  @Field({ description: 'False when the user was already a member (left as is)' })
  added: boolean;
}

@ObjectType('InvitedUser')
export class InvitedUserType {
  @Field(() => ID)
  id: string;

  @Field()
  email: string;
}

@ObjectType('InviteNetworkMemberResult')
export class InviteNetworkMemberResultType {
  @Field(() => InvitedUserType)
  user: InvitedUserType;

  @Field({ description: 'An account was created (state invited) for an unknown address' })
  created: boolean;

  @Field()
  alreadyMember: boolean;
}

@ObjectType('AcceptNetworkInvitationResult')
export class AcceptNetworkInvitationResultType {
  @Field(() => NetworkType)
  network: NetworkType;

  @Field()
  alreadyMember: boolean;
}

@ObjectType('JoinRequestReview')
export class JoinRequestReviewType {
  @Field(() => JoinRequestType)
  joinRequest: JoinRequestType;

  @Field(() => NetworkMemberType, { nullable: true, description: 'The new member, when approved' })
  member: NetworkMemberType | null;
}

/** A request for a network (decisions.md section 2); `title` (a field resolver) is the `name` it was sent with. */
@ObjectType('NetworkRequest')
export class NetworkRequestType {
  @Field(() => ID)
  id: string;

  @Field(() => NetworkRequestStatusEnum)
  status: NetworkRequestStatus;

  @Field(() => String, { nullable: true })
  purpose: string | null;

  @Field(() => String, { nullable: true })
  audience: string | null;

  @Field(() => String, { nullable: true })
  expectedSize: string | null;

  @Field(() => String, { nullable: true })
  notes: string | null;

  @Field(() => JoinPolicyEnum, { nullable: true })
  joinPolicy: JoinPolicy | null;

  @Field(() => ID)
  requesterId: string;

  @Field(() => ID, { nullable: true, description: 'The network its approval created' })
  networkId: string | null;

  @Field()
  submittedAt: Date;

  @Field(() => Date, { nullable: true })
  reviewedAt: Date | null;
}

@ObjectType('NetworkRequestPage')
export class NetworkRequestPageType {
  @Field(() => [NetworkRequestType])
  requests: NetworkRequestType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('MyNetworkRequests')
export class MyNetworkRequestsType extends NetworkRequestPageType {
  @Field({ description: 'Whether the caller may review requests (early access)' })
  canReview: boolean;
}

@ObjectType('ApprovedNetworkRequest')
export class ApprovedNetworkRequestType {
  @Field(() => NetworkRequestType)
  request: NetworkRequestType;

  @Field(() => NetworkType)
  network: NetworkType;
}
