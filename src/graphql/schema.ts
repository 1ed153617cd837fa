import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { authChecker } from './auth-checker';
import { resolvers } from './resolvers';

let built: Promise<GraphQLSchema> | null = null;

/**
 * type-graphql wants a PubSub for any subscription. Ours give a `subscribe` function backed by
 * Postgres LISTEN/NOTIFY (src/events), which reaches every instance; an in-process topic bus
 * would not, so topic-based subscriptions are refused outright.
 */
const noTopicSubscriptions: PubSub = {
  publish() {
    throw new Error('Topic subscriptions are not used: subscriptions give a subscribe function (src/events)');
  },
  subscribe() {
    throw new Error('Topic subscriptions are not used: subscriptions give a subscribe function (src/events)');
  },
};

/** Builds the schema from the resolvers once per process. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    authChecker,
    authMode: 'error',
    pubSub: noTopicSubscriptions,
    validate: false,
  });
  return built;
}

/** The SDL checked in as schema.graphql (sorted, so it is stable across builds). */
export async function printAppSchema(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await buildAppSchema()))}\n`;
}
