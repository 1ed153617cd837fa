import { registerEnumType } from 'type-graphql';

/** GraphQL enums of the networks area; invalid values are refused with 400 before any resolver runs. */
export enum JoinPolicyEnum {
  anyone = 'anyone',
  invite_only = 'invite_only',
}

export enum NetworkRoleEnum {
  owner = 'owner',
  member = 'member',
}

export enum JoinStatusEnum {
  joined = 'joined',
  already_member = 'already_member',
  requested = 'requested',
}

export enum JoinRequestStatusEnum {
  pending = 'pending',
  approved = 'approved',
  declined = 'declined',
}

export enum JoinDecisionEnum {
  approve = 'approve',
  decline = 'decline',
}

export enum NetworkRequestStatusEnum {
  pending = 'pending',
  approved = 'approved',
  dismissed = 'dismissed',
}

registerEnumType(JoinPolicyEnum, { name: 'JoinPolicy', description: 'anyone joins at once; invite_only needs an invitation or an approved join request' });
registerEnumType(NetworkRoleEnum, { name: 'NetworkRole' });
registerEnumType(JoinStatusEnum, { name: 'JoinStatus', description: 'What joining did' });
registerEnumType(JoinRequestStatusEnum, { name: 'JoinRequestStatus' });
registerEnumType(JoinDecisionEnum, { name: 'JoinDecision' });
registerEnumType(NetworkRequestStatusEnum, { name: 'NetworkRequestStatus' });
