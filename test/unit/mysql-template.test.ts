import knex, { type Knex } from 'knex';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../support/databases';
import { migrateFromNothing } from '../support/mysqlTemplate';

/** Everything of a database's schema that the service relies on, comparable between two databases. */
async function schemaOf(admin: Knex, database: string) {
  const [tables] = (await admin.raw('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1', [
    database,
  ])) as [Array<{ name: string }>];
  const creates: string[] = [];
  for (const { name } of tables) {
    const [[shown]] = (await admin.raw('SHOW CREATE TABLE ??.??', [database, name])) as [Array<Record<string, string>>];
    // The next auto-increment value is not schema: it depends on rows written and deleted.
    creates.push(String(shown?.['Create Table']).replace(/ AUTO_INCREMENT=\d+/, ''));
  }
  const [triggers] = (await admin.raw(
    `SELECT trigger_name, action_timing, event_manipulation, event_object_table, action_order, action_statement, sql_mode
       FROM information_schema.triggers WHERE trigger_schema = ? ORDER BY trigger_name`,
    [database],
  )) as [unknown[]];
  const [migrations] = (await admin.raw('SELECT name FROM ??.knex_migrations ORDER BY id', [database])) as [Array<{ name: string }>];
  return { creates, triggers, migrations: migrations.map((row) => row.name) };
}

/**
 * A test's MySQL database is a copy of a migrated template (test/support/mysqlTemplate.ts), not the
 * product of the migrations themselves: the copy must be the same schema, or every MySQL test tests
 * something else than production runs. Compared with a database the migrations made from nothing.
 */
const onMySql = TEST_DATABASES.includes('mysql') ? describe : describe.skip;

onMySql('the MySQL test databases', () => {
  const made: TestDatabase[] = [];
  let admin: Knex;
  beforeAll(() => {
    admin = knex({ client: 'mysql2', connection: { uri: process.env.TEST_MYSQL_URL } as never, pool: { min: 0, max: 1 } });
  });
  afterAll(async () => {
    for (const database of made) await database.drop();
    await admin.destroy();
  });

  it('When a test database is made migrated, then it has the tables, keys, triggers and migrations that the migrations make', async () => {
    const copy = await createTestDatabase('mysql', { migrated: true });
    const migrated = await createTestDatabase('mysql');
    made.push(copy, migrated);
    await migrateFromNothing(migrated.url);
    const nameOf = (database: TestDatabase) => new URL(database.url).pathname.slice(1);

    const [ofCopy, ofMigrations] = await Promise.all([schemaOf(admin, nameOf(copy)), schemaOf(admin, nameOf(migrated))]);
    expect(ofMigrations.triggers.length).toBeGreaterThan(0);
    expect(ofCopy).toEqual(ofMigrations);
  });
});
