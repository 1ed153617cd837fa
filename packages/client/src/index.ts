export { IntroMatchClient, type BodyOf, type ClientOptions, type QueryOf, type Schemas, type SiweSigner } from './client';
export { ApiError, type ErrorDetail } from './errors';
export { type EventFrame, type EventStreamOptions } from './event-stream';
export type { components, operations, paths } from './generated/api';
