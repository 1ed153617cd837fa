import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { NetworkRequest } from '../../entities/network-request.entity';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { pagination } from '../shared/pagination.types';
import { CreateNetworkRequestInput, UpdateNetworkRequestInput } from './network.inputs';
import { ApprovedNetworkRequestType, MyNetworkRequestsType, NetworkRequestPageType, NetworkRequestType, NetworkType } from './network.types';
import { signedIn } from '../signed-in';

@Resolver(() => NetworkRequestType)
export class NetworkRequestResolver {
  @Authorized()
  @Query(() => MyNetworkRequestsType, { description: "The caller's network requests, newest first" })
  async myNetworkRequests(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<MyNetworkRequestsType> {
    const p = await ctx.services.networks.requests.mine(signedIn(ctx), { page, limit });
    return { requests: p.items, pagination: pagination(p.page, p.limit, p.total), canReview: p.canReview };
  }

  @Authorized()
  @Query(() => NetworkRequestPageType, { description: 'Reviewers (early access) only: pending requests, oldest first' })
  async pendingNetworkRequests(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
  ): Promise<NetworkRequestPageType> {
    const p = await ctx.services.networks.requests.pending(signedIn(ctx), { page, limit });
    return { requests: p.items, pagination: pagination(p.page, p.limit, p.total) };
  }

  @Authorized()
  @Mutation(() => NetworkRequestType)
  createNetworkRequest(@Arg('input') input: CreateNetworkRequestInput, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.requests.create(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => NetworkRequestType, { description: 'The requester or a reviewer, while pending' })
  updateNetworkRequest(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateNetworkRequestInput, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.requests.update(signedIn(ctx), id, input);
  }

  @Authorized()
  @Mutation(() => NetworkRequestType, { description: 'The requester withdraws it or a reviewer turns it down' })
  dismissNetworkRequest(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.requests.dismiss(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => ApprovedNetworkRequestType, { description: 'Reviewers only: creates the network, the requester becomes its owner' })
  approveNetworkRequest(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.networks.requests.approve(signedIn(ctx), id);
  }

  @FieldResolver(() => String)
  title(@Root() r: NetworkRequest): string {
    return r.name;
  }

  @FieldResolver(() => UserType, { nullable: true })
  requester(@Root() r: NetworkRequest, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.users.load(r.requesterId);
  }

  @FieldResolver(() => NetworkType, { nullable: true, description: 'The network its approval created (while it exists)' })
  network(@Root() r: NetworkRequest, @Ctx() ctx: GraphQLContext) {
    return r.networkId ? ctx.loaders.networks.load(r.networkId) : null;
  }
}
