import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { authChecker } from './auth-checker';
import { resolvers } from './resolvers';

let built: Promise<GraphQLSchema> | null = null;

/**
 * type-graphql insists on a PubSub once any subscription exists. Ours bring their own
 * `subscribe` (the event feed, which reads the per-user log and wakes on Postgres
 * notifications, so every instance sees every frame); an in-process topic bus would miss
 * frames written on other instances, so topic subscriptions are refused outright.
 */
const noTopics: PubSub = {
  publish() {
    throw new Error('Topic publishing is not used: subscriptions follow the event log');
  },
  subscribe() {
    throw new Error('Topic subscriptions are not used: give @Subscription a subscribe function');
  },
};

/** Builds the schema from the resolvers once per process. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    authChecker,
    authMode: 'error',
    validate: false,
    pubSub: noTopics,
  });
  return built;
}

/** The SDL checked in as schema.graphql (sorted, so it is stable across builds). */
export async function printAppSchema(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await buildAppSchema()))}\n`;
}
