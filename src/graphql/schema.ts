import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authChecker } from './auth-checker';
import { resolvers } from './resolvers';

let built: Promise<GraphQLSchema> | null = null;

/** Builds the schema from the resolvers once per process. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    authChecker,
    authMode: 'error',
    validate: false,
  });
  return built;
}

/** The SDL checked in as schema.graphql (sorted, so it is stable across builds). */
export async function printAppSchema(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await buildAppSchema()))}\n`;
}
