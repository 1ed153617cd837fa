import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { JoinDecisionEnum } from './network.enums';
import { AddNetworkMemberInput, InviteNetworkMemberInput, UpdateNetworkMemberInput } from './network.inputs';
import {
  AcceptNetworkInvitationResultType,
  AddNetworkMemberResultType,
  InviteNetworkMemberResultType,
  JoinNetworkResultType,
  JoinRequestReviewType,
  LeaveNetworkResultType,
  NetworkMemberType,
} from './network.types';
import { signedIn } from '../signed-in';

/** Joining, leaving, invitations, join-request reviews and owners' member management. */
@Resolver()
export class MembershipResolver {
  @Authorized()
  @Mutation(() => JoinNetworkResultType, { description: 'anyone: joins at once; invite_only: asks the owners (one request per person)' })
  joinNetwork(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.members.join(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => LeaveNetworkResultType, { description: "The caller's intents stop being visible in this network at once" })
  async leaveNetwork(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<LeaveNetworkResultType> {
    const { networkDeleted } = await ctx.services.networks.members.leave(signedIn(ctx), id);
    return { success: true, networkDeleted };
  }

  @Authorized()
  @Mutation(() => AddNetworkMemberResultType, { description: 'Owners only' })
  async addNetworkMember(
    @Arg('networkId', () => ID) networkId: string,
    @Arg('input') input: AddNetworkMemberInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AddNetworkMemberResultType> {
    const { member, added } = await ctx.services.networks.members.add(signedIn(ctx), networkId, input);
    return { member, added, message: added ? 'Member added' : 'Already a member; nothing changed' };
  }

  @Authorized()
  @Mutation(() => NetworkMemberType, { description: 'Owners only; the last owner cannot be demoted' })
  updateNetworkMember(
    @Arg('networkId', () => ID) networkId: string,
    @Arg('userId', () => ID) userId: string,
    @Arg('input') input: UpdateNetworkMemberInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.networks.members.setRole(signedIn(ctx), networkId, userId, input);
  }

  @Authorized()
  @Mutation(() => LeaveNetworkResultType, { description: 'Owners remove anyone; members only themselves' })
  async removeNetworkMember(
    @Arg('networkId', () => ID) networkId: string,
    @Arg('userId', () => ID) userId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LeaveNetworkResultType> {
    const { networkDeleted } = await ctx.services.networks.members.remove(signedIn(ctx), networkId, userId);
    return { success: true, networkDeleted };
  }

  @Authorized()
  @Mutation(() => InviteNetworkMemberResultType, { description: 'Owners only' })
  inviteNetworkMember(
    @Arg('networkId', () => ID) networkId: string,
    @Arg('input') input: InviteNetworkMemberInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.networks.invitations.inviteByEmail(signedIn(ctx), networkId, input);
  }

  @Authorized()
  @Mutation(() => AcceptNetworkInvitationResultType, { description: 'Joins through an invitation link; works once per person' })
  acceptNetworkInvitation(@Arg('code') code: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.invitations.accept(signedIn(ctx), code);
  }

  @Authorized()
  @Mutation(() => JoinRequestReviewType, { description: 'Owners only' })
  reviewJoinRequest(
    @Arg('networkId', () => ID) networkId: string,
    @Arg('userId', () => ID) userId: string,
    @Arg('decision', () => JoinDecisionEnum) decision: JoinDecisionEnum,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.networks.joinRequests.review(signedIn(ctx), networkId, userId, decision);
  }
}
