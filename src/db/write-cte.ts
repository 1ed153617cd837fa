/**
 * One write of a statement that makes several (`name as (insert …)`), with its values in the
 * order of its placeholders. Repositories of different areas each give theirs, and one statement
 * runs them all: one statement is one transaction, so they commit together with no BEGIN or
 * COMMIT round trip (docs/adr/0107-fewer-round-trips-on-writes.md).
 */
export interface WriteCte {
  sql: string;
  params: unknown[];
}

/** Several writes as one `with` list. */
export function joinWrites(writes: WriteCte[]): WriteCte {
  return { sql: writes.map((w) => w.sql).join(',\n'), params: writes.flatMap((w) => w.params) };
}
