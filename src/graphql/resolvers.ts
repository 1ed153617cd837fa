import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './accounts/account.resolver';
import { MatchingResolver } from './matching/matching.resolver';

/** Every resolver in the schema; add new ones here (one line each). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [AccountResolver, MatchingResolver];
