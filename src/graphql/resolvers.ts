import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './accounts/account.resolver';
import { MiscResolver } from './accounts/misc.resolver';
import { AgentResolver } from './agents/agent.resolver';
import { ImageResolver } from './storage/image.resolver';

/** Every resolver in the schema; add new ones here (one line each). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  AccountResolver,
  MiscResolver,
  AgentResolver,
  ImageResolver,
];
