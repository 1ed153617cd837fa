import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './accounts/account.resolver';
import { MembershipResolver } from './networks/membership.resolver';
import { JoinRequestFields, NetworkIntentFields, NetworkMemberFields } from './networks/network-links.resolver';
import { NetworkRequestResolver } from './networks/network-request.resolver';
import { NetworkResolver } from './networks/network.resolver';

/** Every resolver in the schema; add new ones here (one line each). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  AccountResolver,
  NetworkResolver, MembershipResolver, NetworkRequestResolver, NetworkMemberFields, NetworkIntentFields, JoinRequestFields,
];
