import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Network } from '../../entities/network.entity';
import { visibleInvitationCode, visibleShareCode } from '../../domain/access/network-codes.policy';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { pagination } from '../shared/pagination.types';
import { NetworkRoleEnum } from './network.enums';
import { CreateNetworkInput, UpdateNetworkInput } from './network.inputs';
import { JoinRequestPageType, NetworkIntentPageType, NetworkMemberPageType, NetworkPageType, NetworkType } from './network.types';
import { signedIn } from '../signed-in';

const roleOf = (ctx: GraphQLContext, n: Network) => (ctx.actor ? ctx.loaders.networkRolesOf(ctx.actor.userId).load(n.id) : Promise.resolve(null));

@Resolver(() => NetworkType)
export class NetworkResolver {
  @Authorized()
  @Query(() => NetworkType, { description: 'A network the caller is in, or any public (anyone) network' })
  network(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Network> {
    return ctx.services.networks.networks.get(signedIn(ctx), id);
  }

  @Authorized()
  @Query(() => NetworkPageType, { description: "The caller's memberships, most recently joined first" })
  async myNetworks(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<NetworkPageType> {
    const p = await ctx.services.networks.networks.mine(signedIn(ctx), { page, limit });
    return { networks: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }

  @Authorized()
  @Query(() => NetworkPageType, { description: 'Public discovery: networks anyone may join, newest first' })
  async publicNetworks(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<NetworkPageType> {
    const p = await ctx.services.networks.networks.discover(signedIn(ctx), { page, limit });
    return { networks: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }

  @Query(() => NetworkType, { description: 'A public (anyone) network; needs no credential' })
  publicNetwork(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Network> {
    return ctx.services.networks.networks.getPublic(id);
  }

  @Query(() => NetworkType, { description: 'The network a share link names; needs no credential' })
  sharedNetwork(@Arg('code') code: string, @Ctx() ctx: GraphQLContext): Promise<Network> {
    return ctx.services.networks.networks.getByShareCode(code);
  }

  @Authorized()
  @Mutation(() => NetworkType, { description: 'Early access only; the caller becomes its owner' })
  createNetwork(@Arg('input') input: CreateNetworkInput, @Ctx() ctx: GraphQLContext): Promise<Network> {
    return ctx.services.networks.networks.create(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => NetworkType, { description: 'Owners only' })
  updateNetwork(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateNetworkInput, @Ctx() ctx: GraphQLContext): Promise<Network> {
    return ctx.services.networks.networks.update(signedIn(ctx), id, input);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Owners only; also ends its invitation and share links' })
  async deleteNetwork(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.networks.networks.delete(signedIn(ctx), id);
    return true;
  }

  @FieldResolver(() => Int)
  async memberCount(@Root() n: Network, @Ctx() ctx: GraphQLContext): Promise<number> {
    return (await ctx.loaders.networkMemberCounts.load(n.id)) ?? 0;
  }

  @FieldResolver(() => NetworkRoleEnum, { nullable: true, description: "The caller's role; null when not a member" })
  role(@Root() n: Network, @Ctx() ctx: GraphQLContext) {
    return roleOf(ctx, n);
  }

  @FieldResolver(() => UserType, { nullable: true, description: 'The creator while still an owner, else the longest-standing owner' })
  async owner(@Root() n: Network, @Ctx() ctx: GraphQLContext) {
    const id = await ctx.loaders.networkOwnerIds.load(n.id);
    return id ? ctx.loaders.users.load(id) : null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Code of the public share link; members only' })
  async shareCode(@Root() n: Network, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    return visibleShareCode(n, await roleOf(ctx, n));
  }

  @FieldResolver(() => String, { nullable: true, description: 'Code of the invitation link; owners only' })
  async invitationCode(@Root() n: Network, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    return visibleInvitationCode(n, await roleOf(ctx, n));
  }

  @FieldResolver(() => NetworkMemberPageType, { description: 'Members only; owners first' })
  async members(
    @Root() n: Network,
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<NetworkMemberPageType> {
    const p = await ctx.services.networks.members.list(signedIn(ctx), n.id, { page, limit });
    return { members: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }

  @FieldResolver(() => NetworkIntentPageType, { description: 'Members only: active intents shared here by members' })
  async intents(
    @Root() n: Network,
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<NetworkIntentPageType> {
    const p = await ctx.services.networks.intents.list(signedIn(ctx), n.id, { page, limit });
    return { intents: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }

  @FieldResolver(() => JoinRequestPageType, { description: 'Owners only: requests waiting for review, oldest first' })
  async joinRequests(
    @Root() n: Network,
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<JoinRequestPageType> {
    const p = await ctx.services.networks.joinRequests.pending(signedIn(ctx), n.id, { page, limit });
    return { joinRequests: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }
}
