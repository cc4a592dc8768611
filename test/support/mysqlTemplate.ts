import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { connectDatabase } from '../../src/db/connect';
import { migrateLatest } from '../../src/db/migrate';
import { createLogger } from '../../src/logger';

/**
 * A test's MySQL database starts as a copy of a migrated template instead of running every migration:
 * on MariaDB the migrations' DDL takes about 3 s a database and a run makes hundreds, the copy about
 * 0.2 s. The template is made once per set of migrations (its name carries a hash of their sources, so
 * a changed migration makes a new one) and kept between runs; the tests of migrations themselves
 * still run them, down and up, on their copy.
 */
const MIGRATIONS_DIR = path.join(__dirname, '../../migrations');
/** A table of the template's own, made last: a template without it was cut off while migrating. */
const READY_MARK = 'rps_template_ready';
/** Templates of other migration sets older than this are dropped when a new one is made. */
const STALE_AFTER_HOURS = 24;

function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  return `rps_tpl_${hash.digest('hex').slice(0, 16)}`;
}

/** The address of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: URL, name: string): string {
  const url = new URL(serverUrl.toString());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs every migration on the (empty) database at `url`, as the service does at its first start. */
export async function migrateFromNothing(url: string): Promise<void> {
  const db = connectDatabase(url, createLogger('error'));
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

async function isReady(admin: Knex, template: string): Promise<boolean> {
  const [rows] = (await admin.raw('SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [
    template,
    READY_MARK,
  ])) as [unknown[]];
  return rows.length > 0;
}

/** Made under a server-wide lock: the workers of a run start together and only one migrates. */
async function ensureTemplate(admin: Knex, serverUrl: URL, template: string): Promise<void> {
  if (await isReady(admin, template)) return;
  await admin.raw('DROP DATABASE IF EXISTS ??', [template]);
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [template]);
  await migrateFromNothing(databaseUrl(serverUrl, template));
  await admin.raw('CREATE TABLE ??.?? (made_at DATETIME NOT NULL)', [template, READY_MARK]);
  await admin.raw('INSERT INTO ??.?? VALUES (UTC_TIMESTAMP())', [template, READY_MARK]);
  const [stale] = (await admin.raw(
    `SELECT table_schema AS name FROM information_schema.tables
      WHERE table_schema LIKE 'rps\\_tpl\\_%' AND table_schema <> ? AND table_name = ?
        AND create_time < NOW() - INTERVAL ? HOUR`,
    [template, READY_MARK, STALE_AFTER_HOURS],
  )) as [Array<{ name: string }>];
  for (const { name } of stale) await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
}

/**
 * The template's triggers (the numbered lists' account_seq, migration 022), each made with the SQL mode
 * it was made with, in the order they fire. Anything else a table copy would miss (a view, a routine,
 * an event) is refused rather than left out.
 */
async function triggersOf(admin: Knex, template: string): Promise<string[]> {
  const [others] = (await admin.raw(
    `SELECT 'view' AS kind, table_name AS name FROM information_schema.views WHERE table_schema = ?
     UNION ALL SELECT 'routine', routine_name FROM information_schema.routines WHERE routine_schema = ?
     UNION ALL SELECT 'event', event_name FROM information_schema.events WHERE event_schema = ?`,
    [template, template, template],
  )) as [Array<{ kind: string; name: string }>];
  if (others.length > 0) {
    throw new Error(
      `mysqlTemplate.ts copies tables and triggers only; the migrations made ${others.map((o) => `${o.kind} ${o.name}`).join(', ')}`,
    );
  }
  const [triggers] = (await admin.raw(
    `SELECT trigger_name AS name, action_timing AS timing, event_manipulation AS happening, event_object_table AS \`table\`,
            action_statement AS body, sql_mode AS mode
       FROM information_schema.triggers WHERE trigger_schema = ?
      ORDER BY event_object_table, action_timing, event_manipulation, action_order`,
    [template],
  )) as [Array<{ name: string; timing: string; happening: string; table: string; body: string; mode: string }>];
  return triggers.flatMap((trigger) => [
    `SET SESSION sql_mode = ${admin.raw('?', [trigger.mode]).toQuery()}`,
    `CREATE TRIGGER \`${trigger.name}\` ${trigger.timing} ${trigger.happening} ON \`${trigger.table}\` FOR EACH ROW ${trigger.body}`,
  ]);
}

/** The statements that make a database named by the argument a copy of the template: its tables, and the rows migrations wrote. */
async function copyScriptOf(admin: Knex, template: string): Promise<(target: string) => string> {
  const [tables] = (await admin.raw(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> ?",
    [template, READY_MARK],
  )) as [Array<{ name: string }>];
  const creates: string[] = [];
  const copies: Array<{ table: string; columns: string }> = [];
  for (const { name } of tables) {
    const [[shown]] = (await admin.raw('SHOW CREATE TABLE ??.??', [template, name])) as [Array<Record<string, string>>];
    creates.push(String(shown?.['Create Table']));
    const [[written]] = (await admin.raw('SELECT EXISTS (SELECT 1 FROM ??.??) AS any_row', [template, name])) as [
      Array<{ any_row: number }>,
    ];
    if (!written?.any_row) continue;
    // Generated columns are computed again in the copy, never written.
    const [columns] = (await admin.raw(
      `SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position`,
      [template, name],
    )) as [Array<{ name: string }>];
    copies.push({ table: name, columns: columns.map((column) => `\`${column.name}\``).join(', ') });
  }
  const triggers = await triggersOf(admin, template);
  return (target) =>
    [
      'SET FOREIGN_KEY_CHECKS = 0',
      'SET @rps_sql_mode = @@SESSION.sql_mode',
      `USE \`${target}\``,
      ...creates,
      ...copies.map(({ table, columns }) => `INSERT INTO \`${table}\` (${columns}) SELECT ${columns} FROM \`${template}\`.\`${table}\``),
      ...triggers,
      'SET SESSION sql_mode = @rps_sql_mode',
      'SET FOREIGN_KEY_CHECKS = 1',
    ].join(';\n');
}

let copyScript: Promise<(target: string) => string> | undefined;

/**
 * Makes `target`, an empty database, a migrated one: a copy of the template, made first if need be.
 * `admin` runs several statements at once (multipleStatements).
 */
export async function copyMigratedTemplate(admin: Knex, serverUrl: URL, target: string): Promise<void> {
  copyScript ??= (async () => {
    const template = templateName();
    // One connection throughout (min 1): GET_LOCK belongs to the connection that took it.
    const locker = knex({ client: 'mysql2', connection: { uri: serverUrl.toString() } as never, pool: { min: 1, max: 1 } });
    try {
      const [[lock]] = (await locker.raw("SELECT GET_LOCK('rps_test_template', 300) AS got")) as [Array<{ got: number }>];
      if (lock?.got !== 1) throw new Error('the test template is being made by another run for over 5 minutes');
      try {
        await ensureTemplate(locker, serverUrl, template);
      } finally {
        await locker.raw("SELECT RELEASE_LOCK('rps_test_template')");
      }
      return await copyScriptOf(locker, template);
    } finally {
      await locker.destroy();
    }
  })();
  const script = await copyScript;
  await admin.raw(script(target));
}
