/**
 * Pooled connections that a statement outside a transaction keeps for the next one instead of
 * handing them back to the pool at once (issue 17). Knex's pool (tarn) makes two pending
 * operations, each with its own timer and a handful of promises, for every acquire: about a
 * twentieth of the CPU of a one-statement read. A spare is taken back with an array pop.
 *
 * Nothing waits on a spare: the pool announces each acquire (`acquireRequest`) before it looks
 * for a free connection, and every spare goes back to it then, so a transaction, an ORM query
 * or a readiness check finds it free exactly as if it had never been kept; and a connection
 * whose statement ends while an acquire waits in the pool's queue goes to that acquire. Spares
 * left unused for `idleMs` go back too, so the pool's own idle reaping still applies, and
 * `close()` hands them all back before the pool is destroyed (which waits on connections in use).
 * docs/adr/0132-spare-connections.md.
 */

/** The pg client as knex pools it: knex marks one that errored or ended (`__knex__disposed`). */
export interface PooledConnection {
  __knex__disposed?: unknown;
}

/** What this needs of tarn's pool. */
interface PoolLike {
  numPendingAcquires(): number;
  on(event: 'acquireRequest', listener: () => void): void;
  removeListener(event: 'acquireRequest', listener: () => void): void;
}

/** What this needs of knex's client: its pool, and acquire and release through it. */
export interface PoolingClient<C extends PooledConnection> {
  pool?: PoolLike;
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<void>;
}

export class SpareConnections<C extends PooledConnection> {
  private readonly spares: C[] = [];
  /** When each spare was last handed back, parallel to `spares`. */
  private readonly since: number[] = [];
  private sweep: NodeJS.Timeout | null = null;
  private readonly pool: PoolLike | undefined;
  private readonly giveBack = () => this.releaseAll();

  constructor(
    readonly client: PoolingClient<C>,
    private readonly max: number,
    private readonly idleMs = 1000,
  ) {
    this.pool = client.pool;
    this.pool?.on('acquireRequest', this.giveBack);
  }

  /** A spare if one is kept and still sound, else a connection from the pool. */
  acquire(): Promise<C> | C {
    while (this.spares.length) {
      const connection = this.spares.pop()!;
      this.since.pop();
      if (!connection.__knex__disposed) return connection;
      // The pool's own check refuses it on the next acquire and opens a new one.
      this.handBack(connection);
    }
    return this.client.acquireConnection();
  }

  /**
   * Keeps a connection whose statement answered, unless someone is waiting on the pool; one
   * whose statement failed, or beyond `max`, goes back to the pool (which checks it before
   * handing it out again). So no spare is kept while an acquire waits: one that arrives later
   * takes them all back as it is announced.
   */
  release(connection: C, sound: boolean): void {
    if (!sound || connection.__knex__disposed || this.spares.length >= this.max || !this.pool || this.pool.numPendingAcquires() > 0) {
      this.handBack(connection);
      return;
    }
    this.spares.push(connection);
    this.since.push(Date.now());
    if (!this.sweep) {
      this.sweep = setTimeout(() => this.returnIdle(), this.idleMs);
      this.sweep.unref();
    }
  }

  /** How many connections are kept now. */
  get size(): number {
    return this.spares.length;
  }

  /** Hands every spare back to the pool. */
  releaseAll(): void {
    if (this.sweep) clearTimeout(this.sweep);
    this.sweep = null;
    const all = this.spares.splice(0);
    this.since.length = 0;
    for (const connection of all) this.handBack(connection);
  }

  /** Hands every spare back and stops listening to the pool: before the pool is destroyed. */
  close(): void {
    this.pool?.removeListener('acquireRequest', this.giveBack);
    this.releaseAll();
  }

  /** Back to the pool; a pool destroyed meanwhile (knex sets it to undefined) has nothing to take. */
  private handBack(connection: C): void {
    try {
      void this.client.releaseConnection(connection).catch(() => undefined);
    } catch {
      // Destroyed with the ORM: the connection ended with it.
    }
  }

  /** Hands back the spares unused for `idleMs`; checks again while any is kept. */
  private returnIdle(): void {
    this.sweep = null;
    const cutoff = Date.now() - this.idleMs;
    // The oldest are at the bottom of the stack.
    let stale = 0;
    while (stale < this.since.length && this.since[stale] <= cutoff) stale++;
    const old = this.spares.splice(0, stale);
    this.since.splice(0, stale);
    for (const connection of old) this.handBack(connection);
    if (this.spares.length) {
      this.sweep = setTimeout(() => this.returnIdle(), this.idleMs);
      this.sweep.unref();
    }
  }
}
