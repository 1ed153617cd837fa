import { RequestContext, type EntityManager } from '@mikro-orm/core';
import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The forks of one request context, made when first asked for (issue 17, ADR 0123).
 *
 * MikroORM's `RequestContext.create` forks the EntityManager before the request runs: a unit of
 * work, an identity map, an entity factory and loader, about 2% of a cheap read's CPU and much of
 * its garbage. Many requests never ask for it: a refusal before the route runs, a read answered
 * by a prepared statement outside any transaction. Here the context is MikroORM's own (its
 * storage, `RequestContext.getEntityManager`, `em.getContext()` all work as before); only its
 * map forks on the first `get`, from the EntityManager given, exactly as `create` would have.
 */
class LazyForks extends Map<string, EntityManager> {
  constructor(readonly root: EntityManager) {
    super();
  }

  private forking = false;

  override get(name: string): EntityManager | undefined {
    const made = super.get(name);
    if (made !== undefined || name !== this.root.name || this.forking) return made;
    // Not through the context (`disableContextResolution`): the context being filled is this
    // one, and `create` forks from the EntityManager it was given, as here. While the fork is
    // being built it asks for the context's EntityManager itself; as under `create`, where the
    // context is entered only after the fork, it finds none then and uses its own.
    this.forking = true;
    try {
      const fork = this.root.fork({ useContext: true, disableContextResolution: true });
      this.set(name, fork);
      return fork;
    } finally {
      this.forking = false;
    }
  }

  /** Whether the fork has been made. */
  made(): boolean {
    return super.get(this.root.name) !== undefined;
  }
}

/**
 * MikroORM's request context storage (what `RequestContext.create` runs a context in). The
 * typings keep it private; `create` itself is one `run` of a context it builds with an eager
 * fork, so the lazy context is run in the same storage here. `@mikro-orm/core` is pinned, and
 * test/foundation/lazy-request-context.test.ts fails if the storage moves.
 */
const storage = (RequestContext as unknown as { storage: AsyncLocalStorage<RequestContext> }).storage;

/** Runs `next` in a new request context for `em`, whose fork is made when something asks for it. */
export function withLazyRequestContext<T>(em: EntityManager, next: () => T): T {
  return storage.run(new RequestContext(new LazyForks(em)), next);
}

/**
 * Whether `em` is the root EntityManager of the current lazy request context and its fork has not
 * been made: then the request has no transaction (transactions run on the fork), and a statement
 * that needs only the connection can run without making one.
 */
export function forkPending(em: EntityManager): boolean {
  const map = RequestContext.currentRequestContext()?.map;
  return map instanceof LazyForks && map.root === em && !map.made();
}

/**
 * `em.isInTransaction()` without making the request's fork only to answer it: a request whose
 * fork is pending has no transaction (they run on the fork).
 */
export function inTransaction(em: EntityManager): boolean {
  return !forkPending(em) && em.isInTransaction();
}
