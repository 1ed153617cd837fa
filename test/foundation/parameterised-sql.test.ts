import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm';
import { bindParameters } from '../../src/db/parameterised-connection';
import { prepared, preparedRows } from '../../src/db/prepared';
import { User } from '../../src/entities/user.entity';
import { cloneTestDatabase } from '../helpers/app';

/** docs/adr/0106-parameterised-and-prepared-statements.md */
describe('statements carry their values as parameters', () => {
  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
  let orm: MikroORM;
  beforeAll(async () => {
    db = await cloneTestDatabase();
    orm = await MikroORM.init(ormOptions(db.url));
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  const ownText = 'select query from pg_stat_activity where pid = pg_backend_pid() and ? <> ?';

  it('the server sees placeholders, not the values, for a repository statement and for the ORM', async () => {
    const em = orm.em.fork() as EntityManager;
    const [row] = await em.execute<Array<{ query: string }>>(ownText, ["it's a marker", 'other']);
    expect(row.query).toBe('select query from pg_stat_activity where pid = pg_backend_pid() and $1 <> $2');

    // The ORM's own reads and writes go through the same connection.
    const user = Object.assign(new User(), { name: "O'Brien \\ marker", socials: [{ label: 'a', value: 'b' }] });
    await em.persistAndFlush(user);
    const back = await orm.em.fork().findOneOrFail(User, { id: user.id });
    expect(back.name).toBe("O'Brien \\ marker");
    expect(back.socials).toEqual([{ label: 'a', value: 'b' }]);
  });

  it('a prepared statement is parsed once per connection under its name, inside the transaction', async () => {
    const byId = prepared('test_user_name', 'select name from users where id = ?');
    const em = orm.em.fork() as EntityManager;
    const user = Object.assign(new User(), { name: 'Prepared' });
    await em.persistAndFlush(user);
    await em.transactional(async (tx) => {
      expect(await preparedRows<{ name: string }>(tx, byId, [user.id])).toEqual([{ name: 'Prepared' }]);
      expect(await preparedRows<{ name: string }>(tx, byId, [user.id])).toEqual([{ name: 'Prepared' }]);
      const names = await tx.execute<Array<{ name: string; statement: string }>>('select name, statement from pg_prepared_statements where name = ?', ['test_user_name']);
      expect(names).toEqual([{ name: 'test_user_name', statement: 'select name from users where id = $1' }]);
    });
    expect(() => prepared('test_user_name', 'select id from users where id = ?')).toThrow(/used twice/);
  });

  it('reads the text as the ORM did: escaped question marks, identifiers, lists, dates and JSON', () => {
    const platform = orm.em.getPlatform() as Parameters<typeof bindParameters>[0];
    const at = new Date('2026-01-02T03:04:05.678Z');
    const bound = bindParameters(platform, 'select ?? from t where tags \\? ? and id in (?) and at = ? and doc = ? and n = ?', [
      'col',
      'key',
      ['a', 'b'],
      at,
      { x: 1 },
      undefined,
    ]);
    expect(bound.text).toBe('select "col" from t where tags ? $1 and id in ($2, $3) and at = $4 and doc = $5 and n = $6');
    expect(bound.values).toEqual(['key', 'a', 'b', platform.formatDate(at), '{"x":1}', null]);
  });
});
