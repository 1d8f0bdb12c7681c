import { createTestSchema, type TestSchema } from '../../../test/support/postgres';
import { quoteIdentifier, StatementNames } from './pg-client';
import type { SqlExecutor } from './sql-client';

describe('StatementNames', () => {
  it('names each text once, the same text always alike', () => {
    const names = new StatementNames();
    const first = names.nameFor('SELECT $1');
    expect(names.nameFor('SELECT $2')).not.toBe(first);
    expect(names.nameFor('SELECT $1')).toBe(first);
  });

  it('leaves texts past its limit unnamed, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const first = names.nameFor('SELECT 1 WHERE $1');
    names.nameFor('SELECT 2 WHERE $1');
    expect(names.nameFor('SELECT 3 WHERE $1')).toBeUndefined();
    expect(names.nameFor('SELECT 1 WHERE $1')).toBe(first);
  });
});

/**
 * Parameterised statements are prepared once per connection. The projection rebuild relies on a
 * prepared statement resolving its tables anew: it runs the projector's statements under another
 * search_path and then swaps the rebuilt tables in for the live ones.
 */
describe('prepared statements on PostgreSQL', () => {
  let db: TestSchema;
  let other: string;

  beforeAll(async () => {
    db = await createTestSchema('prep');
    other = `${db.schema}_other`;
    await db.client.exec(`
      CREATE SCHEMA ${quoteIdentifier(other)};
      CREATE TABLE notes (id int PRIMARY KEY, v text);
      INSERT INTO notes VALUES (1, 'live');
      CREATE TABLE ${quoteIdentifier(other)}.notes (id int PRIMARY KEY, v text);
      INSERT INTO ${quoteIdentifier(other)}.notes VALUES (1, 'shadow');`);
  });

  afterAll(async () => {
    await db?.client.exec(`DROP SCHEMA IF EXISTS ${quoteIdentifier(other)} CASCADE`);
    await db?.drop();
  });

  const prepared = (session: SqlExecutor) => session.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements`);
  const read = async (session: SqlExecutor) => (await session.query<{ v: string }>(`SELECT v FROM notes WHERE id = $1`, [1]))[0]?.v;

  it('parses a parameterised statement once on a connection and reuses it', async () => {
    await db.client.withSession(async (session) => {
      expect(await read(session)).toBe('live');
      expect(await read(session)).toBe('live');
      const statements = (await prepared(session)).filter((s) => s.statement === `SELECT v FROM notes WHERE id = $1`);
      expect(statements).toHaveLength(1);
    });
  });

  it('resolves its tables under the search_path in force when it runs', async () => {
    await db.client.withSession(async (session) => {
      expect(await read(session)).toBe('live');
      await session.query('BEGIN');
      await session.query(`SELECT set_config('search_path', $1, true)`, [quoteIdentifier(other)]);
      expect(await read(session)).toBe('shadow');
      await session.query('COMMIT');
      expect(await read(session)).toBe('live');
    });
  });

  it('reads the table that replaced the one it was prepared on', async () => {
    await db.client.withSession(async (session) => {
      expect(await read(session)).toBe('live');
      await session.query('BEGIN');
      await session.query(`DROP TABLE notes`);
      await session.query(`ALTER TABLE ${quoteIdentifier(other)}.notes SET SCHEMA ${quoteIdentifier(db.schema)}`);
      await session.query('COMMIT');
      expect(await read(session)).toBe('shadow');
    });
  });
});
