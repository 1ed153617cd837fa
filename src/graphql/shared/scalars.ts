/** Free-form JSON values (message metadata, frame payloads). */
export { GraphQLJSON as JSONScalar, GraphQLJSONObject as JSONObjectScalar } from 'graphql-scalars';
