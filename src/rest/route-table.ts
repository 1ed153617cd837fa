import type { Request, Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { z } from 'zod';
import type { RequestSchema } from './request-schema';
import type { Services } from '../services';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The parts of an HTTP request a route row may turn into variables. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** The uploaded file of a multipart route. */
  file?: { buffer: Buffer; mimetype: string; originalname: string; size: number };
  headers: Request['headers'];
}

/**
 * One documented REST route: which named GraphQL operation it runs and how the request and
 * result translate. The operation lives in src/rest/operations/*.graphql.
 */
export interface RouteDef {
  method: HttpMethod;
  /** Express path, e.g. `/api/intents/:id`. */
  path: string;
  /** Name of the operation in the .graphql documents. */
  operation: string;
  /** One line for the OpenAPI document and the reference page. */
  summary: string;
  /**
   * The request's query and body schemas: the router checks the request with them before the
   * operation runs, and the OpenAPI document publishes them (docs/adr/0090-route-schemas-openapi.md).
   */
  request?: RequestSchema;
  /**
   * The JSON body at the success status, for a row whose `body` function reshapes what its
   * operation selects (rows that `send` or `stream` describe theirs with `content`). Any other
   * row's is derived from its selection (src/rest/schemas/presented.ts,
   * docs/adr/0126-one-presenter-per-output.md).
   */
  response?: z.ZodType;
  /**
   * What a `send` or `stream` row writes instead of JSON. An SSE frame without `frame` is the
   * subscription's root field as selected (derived like `response`).
   */
  content?: { kind: 'image' } | { kind: 'sse'; frame?: z.ZodType };
  /**
   * Documented failures beyond the ones every route shares (400 for a request that fails its
   * schema, 401/403 from the access rule, 429, 500, 503): status → body.
   */
  errors?: Partial<Record<number, z.ZodType>>;
  /** Request → operation variables. Default: none. */
  variables?: (r: RestRequest) => Record<string, unknown>;
  /** Success status. Default 200. */
  status?: number;
  /**
   * Where the JSON body is in the operation's data: response keys, dotted (`network.members`),
   * or `''` for the whole data (its root fields aliased to REST's keys). Default: the value of
   * the operation's single root field.
   */
  bodyAt?: string;
  /** Operation data → JSON body, where the body is not a part of the data as selected; needs `response`. */
  body?: (data: Record<string, any>, r: RestRequest) => unknown;
  /** Writes the response itself (files, streams); replaces `status` and `body`. `services` locates what it streams. */
  send?: (res: Response, data: Record<string, any>, r: RestRequest, services: Services) => void | Promise<void>;
  /**
   * A stream row: the operation is a subscription, run with graphql-js `subscribe`; this writes
   * its results (for example as server-sent events). Errors before the first result (refusals)
   * answer as JSON with their status, like any route.
   */
  stream?: (res: Response, results: AsyncIterableIterator<ExecutionResult>, r: RestRequest, services: Services) => Promise<void>;
  /**
   * The documented error text of a body that fails validation on this route, when its document
   * gives one (the negotiation turn's "Invalid negotiation action or message"). A body that is
   * not a JSON object, or holds text the database cannot store, is then refused with it (400,
   * with details) instead of `invalid_request`.
   */
  invalidBody?: string;
  /**
   * Variables whose text the router does not check for what the database cannot store, because
   * the domain reads them selectively (h2a drops entries of unknown kinds unread) and checks
   * what it keeps.
   */
  textReadByDomain?: string[];
  /** A multipart route: the form field holding the file. */
  upload?: { field: string };
}

/** A route table for one area: rows in the order they are matched. */
export type RouteTable = RouteDef[];
