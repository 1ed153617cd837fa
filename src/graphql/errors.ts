import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { badRequest, busy, DomainError, unavailable } from '../domain/shared/errors';
import { UNSTORABLE_TEXT_MESSAGE } from '../domain/shared/validation';
import { httpStatusOf, internalError } from '../domain/shared/error-table';
import { capEchoes, capEchoesIn } from '../domain/shared/echo-cap';
import type { Logger } from '../logger';

function domainOf(err: GraphQLError): DomainError | null {
  let e: unknown = err.originalError;
  // type-graphql and graphql-js may wrap errors; unwrap to the first domain error.
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof DomainError) return e;
    const refused = dataExceptionOf(e) ?? transientDatabaseErrorOf(e);
    if (refused) return refused;
    e = (e as { originalError?: unknown }).originalError;
  }
  return null;
}

/**
 * PostgreSQL's class 22 (data exception: a NUL character in text or JSON, a number out of a
 * column's range, a malformed uuid or date) is raised by a value the client sent that input
 * validation let through. It is the client's 400, never a 500; the database's own message
 * names the problem without echoing the value.
 */
export function dataExceptionOf(e: unknown): DomainError | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const message = String((e as Error).message ?? '');
  // node-postgres sends a NUL inside a text parameter, which the server cannot read as a
  // message (08P01 "invalid message format"); in JSON it is 22P05, in text 22021.
  if (code === '22021' || code === '22P05' || (code === '08P01' && message.endsWith('invalid message format'))) {
    return badRequest([{ path: '', message: UNSTORABLE_TEXT_MESSAGE }]);
  }
  if (!/^22[0-9A-Z]{3}$/.test(code)) return null;
  // The ORM's message is `<the statement> - <the database's message>`; only the latter is for the client.
  const cut = message.lastIndexOf(' - ');
  return badRequest([{ path: '', message: (cut >= 0 ? message.slice(cut + 3) : message).split('\n')[0] || 'invalid value' }]);
}

/**
 * PostgreSQL broke a deadlock (40P01) or refused a serializable transaction (40001): the
 * transaction was rolled back whole, so nothing it wrote stayed, and the same request sent
 * again normally goes through. That is 503 `busy` with `retryable: true` (core-api.md: 503 for
 * what can be retried), not a 500. The service's writers take locks in one order (event
 * counters first) so this should not happen among them; it is the answer when it does anyway.
 * A database that cannot be reached (refused, reset, shutting down, out of connections) is
 * likewise 503 `database_unavailable`, retryable, wherever it is met, authentication included.
 */
export function transientDatabaseErrorOf(e: unknown): DomainError | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === '40P01' || code === '40001') {
    return busy();
  }
  if (databaseUnreachable(e)) {
    return unavailable('database_unavailable', { detail: 'The database cannot be reached right now; try again shortly', retryable: true });
  }
  return null;
}

/** Socket errors, PostgreSQL's connection and shutdown classes, and a pool that found no connection. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '53300']);

function databaseUnreachable(e: unknown): boolean {
  const err = e as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!err) return false;
  // Class 08 is connection exceptions, except 08P01 (a protocol violation: see dataExceptionOf).
  if (typeof err.code === 'string' && (UNREACHABLE_CODES.has(err.code) || /^080\d\d$/.test(err.code))) return true;
  if (err.name === 'ConnectionException') return true;
  const message = typeof err.message === 'string' ? err.message : '';
  // node-postgres: a pooled client whose socket broke mid-transaction is "not queryable"; one
  // whose server went away while connecting "ended unexpectedly"; knex reports the next
  // statement of a transaction whose connection just died as "already complete".
  return /Timeout acquiring a connection|Connection terminated|Connection ended unexpectedly|has encountered a connection error and is not queryable|Transaction query already complete|connect ECONNREFUSED|not currently accepting connections|the database system is (shutting down|starting up)/.test(
    message,
  );
}

/**
 * Errors graphql-js raises itself (variables that do not coerce, a document that does not
 * validate) are the client's input problems. They carry no original error, or one that is a
 * GraphQLError without a path.
 */
function isInputError(err: GraphQLError): boolean {
  if (!err.originalError) return true;
  return err.originalError instanceof GraphQLError && !err.path;
}

/** Reduces a GraphQL result's errors to the one domain error a REST client receives. */
export function toDomainError(errors: readonly GraphQLError[], logger: Logger): DomainError {
  for (const err of errors) {
    const d = domainOf(err);
    // Operators should see lock-order trouble even though the client got a retryable answer.
    if (d?.error === 'busy') logger.warn({ err: err.originalError ?? err, path: err.path }, 'transaction rolled back by the database (deadlock or serialization failure)');
    if (d) return d;
  }
  const input = errors.filter(isInputError);
  if (input.length === errors.length) {
    return badRequest(input.map((e) => ({ path: inputPath(e), message: e.message })));
  }
  for (const err of errors) logger.error({ err: err.originalError ?? err, path: err.path }, 'unhandled error');
  return internalError();
}

function inputPath(e: GraphQLError): string {
  const m = /^Variable "\$([^"]+)" got invalid value.*?(?: at "([^"]+)")?;/.exec(e.message);
  if (!m) return '';
  // A required input field that is absent is named after the semicolon, not in the path.
  const missing = /; Field "([^"]+)" of required type .* was not provided\.$/.exec(e.message);
  const path = [m[2] ?? m[1], missing?.[1]].filter(Boolean).join('.');
  // REST clients sent the fields of `$input` at the top level of their body.
  return path.replace(/^input\.?/, '');
}

/** Apollo and graphql-ws: domain errors keep their text and fields; unknown ones are masked. */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const err = error instanceof GraphQLError ? error : null;
    const d = err ? domainOf(err) : error instanceof DomainError ? error : null;
    if (d) {
      return {
        message: d.error,
        path: formatted.path,
        locations: formatted.locations,
        extensions: capEchoesIn({ code: d.code, http: { status: httpStatusOf[d.code] }, ...d.extra }),
      };
    }
    if (err && isInputError(err)) return { ...formatted, message: capEchoes(formatted.message) };
    logger.error({ err: err?.originalError ?? error }, 'unhandled GraphQL error');
    return { message: 'internal', path: formatted.path, extensions: { code: 'INTERNAL' } };
  };
}
