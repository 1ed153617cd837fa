import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { MemberView } from '../../domain/networks/membership.service';
import type { NetworkIntentView } from '../../domain/networks/network-intents.service';
import type { NetworkJoinRequest } from '../../entities/network-join-request.entity';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { NetworkRoleEnum } from './network.enums';
import { JoinRequestType, NetworkIntentType, NetworkMemberType, NetworkType } from './network.types';

/** Edges from the networks area's types to users and networks, through the batch loaders. */
@Resolver(() => NetworkMemberType)
export class NetworkMemberFields {
  @FieldResolver(() => [NetworkRoleEnum], { description: '[owner] or [member]' })
  permissions(@Root() m: MemberView): NetworkRoleEnum[] {
    return [m.role as NetworkRoleEnum];
  }

  @FieldResolver(() => UserType)
  user(@Root() m: MemberView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.users.load(m.id);
  }
}

@Resolver(() => NetworkIntentType)
export class NetworkIntentFields {
  @FieldResolver(() => UserType, { nullable: true, description: 'The owner' })
  user(@Root() i: NetworkIntentView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.users.load(i.userId);
  }
}

@Resolver(() => JoinRequestType)
export class JoinRequestFields {
  @FieldResolver(() => UserType, { nullable: true, description: 'Who asks to join' })
  user(@Root() r: NetworkJoinRequest, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.users.load(r.userId);
  }

  @FieldResolver(() => NetworkType, { nullable: true })
  network(@Root() r: NetworkJoinRequest, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.networks.load(r.networkId);
  }
}
