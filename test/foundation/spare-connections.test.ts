import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { SpareConnections, type PooledConnection, type PoolingClient } from '../../src/db/spare-connections';
import { User } from '../../src/entities/user.entity';
import { cloneTestDatabase } from '../helpers/app';
import { eventually } from '../helpers/eventually';

/** docs/adr/0132-spare-connections.md */
describe('spare connections between statements outside a transaction', () => {
  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
  let orm: MikroORM;
  /** A pool of one connection that gives up on an acquire after a second: a starved acquire fails fast. */
  beforeAll(async () => {
    db = await cloneTestDatabase();
    // With a logger, as the service opens it: knex's word of the connection ended below goes there.
    const options = ormOptions(db.url, createLogger('silent'));
    orm = await MikroORM.init({ ...options, pool: { min: 0, max: 1 }, driverOptions: { ...options.driverOptions, acquireConnectionTimeout: 1000 } });
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  const em = () => orm.em.fork() as EntityManager;
  const pid = async (e: EntityManager = em()) => (await e.execute<Array<{ pid: number }>>('select pg_backend_pid() as pid where ? = ?', [1, 1]))[0].pid;
  const pool = () => (orm.em.getConnection().getKnex().client as { pool: { numUsed(): number; numFree(): number } }).pool;

  it('keeps the connection for the next statement, which runs on the same server process', async () => {
    const first = await pid();
    expect(pool().numUsed()).toBe(1);
    expect(await pid()).toBe(first);
  });

  it('gives the spare back to a transaction, an ORM read and a write on a pool of one, none of them waiting', async () => {
    await pid();
    const user = Object.assign(new User(), { name: 'Spare' });
    await em().persistAndFlush(user);
    await pid();
    expect((await em().findOneOrFail(User, { id: user.id })).name).toBe('Spare');
    await pid();
    const inside = await em().transactional(async (tx) => {
      // The transaction's own connection; a statement outside it would need a second one.
      expect(pool().numUsed()).toBe(1);
      return pid(tx as EntityManager);
    });
    expect(await pid()).toBe(inside);
  });

  it('a connection whose statement ends while an acquire waits goes to that acquire, not to the spares', async () => {
    // The pool's one connection is busy with a statement; a transaction queues for it meanwhile.
    const slow = em().execute('select pg_sleep(?) as slept', [0.3]);
    await new Promise((r) => setTimeout(r, 50));
    const waiting = em().transactional(async (tx) => pid(tx as EntityManager));
    await slow;
    await expect(waiting).resolves.toEqual(expect.any(Number));
  });

  it('does not hand out a spare whose server process is gone; the pool opens a new one', async () => {
    const gone = await pid();
    const other = await MikroORM.init({ ...ormOptions(db.url), pool: { min: 0, max: 1 } });
    try {
      await other.em.fork().execute('select pg_terminate_backend(?)', [gone]);
    } finally {
      await other.close(true);
    }
    // The ended socket marks the spare; until then a statement on it would fail.
    await eventually(async () => (await pid().catch(() => gone)) !== gone, 'a statement on another server process');
  });

  it('a statement that fails hands its connection back to the pool', async () => {
    await expect(em().execute('select 1 / ? as x', [0])).rejects.toThrow(/division by zero/);
    expect(pool().numUsed()).toBe(0);
    expect(await pid()).toEqual(expect.any(Number));
  });
});

describe('SpareConnections', () => {
  interface Conn extends PooledConnection {
    n: number;
  }
  function fakeClient() {
    const listeners = new Set<() => void>();
    let made = 0;
    let waiting = 0;
    const released: Conn[] = [];
    const client: PoolingClient<Conn> = {
      pool: { numPendingAcquires: () => waiting, on: (_e, l) => listeners.add(l), removeListener: (_e, l) => listeners.delete(l) },
      acquireConnection: async () => {
        for (const l of listeners) l();
        return { n: ++made };
      },
      releaseConnection: async (c) => {
        released.push(c);
      },
    };
    return { client, released, listeners, made: () => made, wait: (n: number) => void (waiting = n) };
  }

  it('reuses a kept connection, up to max kept, and gives every one back when the pool is asked', async () => {
    const f = fakeClient();
    const spares = new SpareConnections(f.client, 2, 60_000);
    const [a, b, c] = await Promise.all([spares.acquire(), spares.acquire(), spares.acquire()]);
    [a, b, c].forEach((x) => spares.release(x, true));
    expect(spares.size).toBe(2);
    expect(f.released).toEqual([c]);
    expect(await spares.acquire()).toBe(b);
    expect(f.made()).toBe(3);
    // Someone else acquires from the pool: the spare goes back first.
    await f.client.acquireConnection();
    expect(spares.size).toBe(0);
    expect(f.released).toEqual([c, a]);
    spares.close();
    expect(f.listeners.size).toBe(0);
  });

  it('gives back a connection that failed or was marked by knex, and one left unused past idleMs', async () => {
    const f = fakeClient();
    const spares = new SpareConnections(f.client, 5, 30);
    const a = await spares.acquire();
    spares.release(a, false);
    expect(f.released).toEqual([a]);
    const b = await spares.acquire();
    spares.release(b, true);
    b.__knex__disposed = new Error('Connection terminated');
    const c = await spares.acquire();
    expect(c).not.toBe(b);
    expect(f.released).toEqual([a, b]);
    spares.release(c, true);
    expect(spares.size).toBe(1);
    await eventually(() => spares.size === 0, 'the idle spare handed back');
    expect(f.released).toEqual([a, b, c]);
    // With an acquire waiting in the pool, an answered statement's connection goes to it.
    const d = await spares.acquire();
    f.wait(1);
    spares.release(d, true);
    expect(spares.size).toBe(0);
    expect(f.released).toEqual([a, b, c, d]);
    spares.close();
  });
});
