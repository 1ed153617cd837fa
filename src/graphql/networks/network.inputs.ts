import { ID } from 'type-graphql';
import {
  addMemberSchema,
  createNetworkRequestSchema,
  createNetworkSchema,
  inviteSchema,
  updateMemberSchema,
  updateNetworkRequestSchema,
  updateNetworkSchema,
} from '../../domain/networks/network.schemas';
import { inputType } from '../shared/input-type';
import { JoinPolicyEnum, NetworkRoleEnum } from './network.enums';

/** The area's inputs, derived from the domain's schemas (src/domain/networks/network.schemas.ts). */
export const CreateNetworkInput = inputType('CreateNetworkInput', createNetworkSchema, { types: { joinPolicy: JoinPolicyEnum } });
export type CreateNetworkInput = InstanceType<typeof CreateNetworkInput>;

/** Omitted fields are kept; null clears prompt or imageUrl. */
export const UpdateNetworkInput = inputType('UpdateNetworkInput', updateNetworkSchema, { types: { joinPolicy: JoinPolicyEnum } });
export type UpdateNetworkInput = InstanceType<typeof UpdateNetworkInput>;

export const AddNetworkMemberInput = inputType('AddNetworkMemberInput', addMemberSchema, { types: { userId: ID, permissions: NetworkRoleEnum } });
export type AddNetworkMemberInput = InstanceType<typeof AddNetworkMemberInput>;

export const UpdateNetworkMemberInput = inputType('UpdateNetworkMemberInput', updateMemberSchema, { types: { permissions: NetworkRoleEnum } });
export type UpdateNetworkMemberInput = InstanceType<typeof UpdateNetworkMemberInput>;

export const InviteNetworkMemberInput = inputType('InviteNetworkMemberInput', inviteSchema);
export type InviteNetworkMemberInput = InstanceType<typeof InviteNetworkMemberInput>;

export const CreateNetworkRequestInput = inputType('CreateNetworkRequestInput', createNetworkRequestSchema, { types: { joinPolicy: JoinPolicyEnum } });
export type CreateNetworkRequestInput = InstanceType<typeof CreateNetworkRequestInput>;

export const UpdateNetworkRequestInput = inputType('UpdateNetworkRequestInput', updateNetworkRequestSchema);
export type UpdateNetworkRequestInput = InstanceType<typeof UpdateNetworkRequestInput>;
