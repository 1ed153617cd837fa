/**
 * One write of a statement that makes several (`name as (insert …)`), with its values in the
 * order of its placeholders. Repositories of different areas each give theirs, and one statement
 * runs them all: one statement is one transaction, so they commit together with no BEGIN or
 * COMMIT round trip (docs/adr/0107-fewer-round-trips-on-writes.md).
 */
export interface WriteCte {
  sql: string;
  params: unknown[];
  /**
   * The name the whole statement is prepared under (prepared.ts), for writes whose text never
   * changes: the server then parses and plans it once per connection, not on every call.
   */
  preparedAs?: string;
  /**
   * A write of the statement (its `name as (…)`) the rest depends on: when a condition kept it
   * from writing a row, the frame appended after the writes is not written either, and the
   * statement answers no row (`writeWithEvent` answers null).
   */
  gate?: string;
}

/** Several writes as one `with` list, prepared as `preparedAs` when given. */
export function joinWrites(writes: WriteCte[], preparedAs?: string): WriteCte {
  const gate = writes.find((w) => w.gate)?.gate;
  return { sql: writes.map((w) => w.sql).join(',\n'), params: writes.flatMap((w) => w.params), ...(preparedAs ? { preparedAs } : {}), ...(gate ? { gate } : {}) };
}
