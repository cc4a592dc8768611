import Database from 'better-sqlite3';
import type { Knex } from 'knex';

/**
 * The reads every API request makes — its token, a list's page and that list's total — cost more in
 * knex (building the query, the one-connection pool's queue, the promise chain) than in SQLite
 * itself: about half the CPU of a list request. On SQLite they run here instead, on a second,
 * read-only connection, synchronously, with statements prepared once.
 *
 * Safe because SQLite in WAL mode gives each statement of that connection the latest committed
 * state, and nothing else: never another connection's unfinished transaction. So a read inside a
 * transaction must not come here — `readRows` only takes the knex instance itself, never a
 * transaction (a transaction is another object, and falls back to knex).
 */
const readers = new WeakMap<Knex, SqliteReader>();

/** Statements kept prepared: the hot shapes are a handful, the bound values vary. */
const MAX_PREPARED = 50;

/** A prepared read and its column names, in order. */
interface PreparedRead {
  statement: Database.Statement;
  columns: string[];
}

class SqliteReader {
  private connection: Database.Database | undefined;
  private closed = false;
  private readonly prepared = new Map<string, PreparedRead>();

  constructor(private readonly filename: string) {}

  /**
   * Rows come from SQLite as arrays and become objects here: a third cheaper than better-sqlite3
   * building each object itself (the objects are most of a page's cost, not SQLite's reading).
   */
  all<Row>(sql: string, bindings: readonly unknown[]): Row[] {
    const read = this.read(sql);
    const arrays = read.statement.all(...bindings) as unknown[][];
    // `select *` after another process migrated: SQLite re-prepared the statement with the new columns.
    if (arrays[0] && arrays[0].length !== read.columns.length) read.columns = columnsOf(read.statement);
    const { columns } = read;
    const rows = new Array<Row>(arrays.length);
    for (let index = 0; index < arrays.length; index += 1) {
      const values = arrays[index] as unknown[];
      const row: Record<string, unknown> = {};
      for (let column = 0; column < columns.length; column += 1) row[columns[column] as string] = values[column];
      rows[index] = row as Row;
    }
    return rows;
  }

  close(): void {
    this.closed = true;
    this.prepared.clear();
    this.connection?.close();
    this.connection = undefined;
  }

  private read(sql: string): PreparedRead {
    let read = this.prepared.get(sql);
    if (!read) {
      if (this.closed) throw new Error('The database connection is closed');
      // Opened on first use: by then the knex connection has created the file and migrated it.
      this.connection ??= openReader(this.filename);
      const statement = this.connection.prepare(sql);
      if (!statement.reader) throw new Error('readRows only reads: this statement returns no rows');
      read = { statement: statement.raw(true), columns: columnsOf(statement) };
      if (this.prepared.size >= MAX_PREPARED) this.prepared.clear();
      this.prepared.set(sql, read);
    }
    return read;
  }
}

const columnsOf = (statement: Database.Statement) => statement.columns().map((column) => column.name);

function openReader(filename: string): Database.Database {
  const connection = new Database(filename, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  return connection;
}

/** Gives a SQLite file database its read connection, closed with the knex instance. */
export function attachSqliteReader(db: Knex, filename: string): Knex {
  if (filename === ':memory:') return db; // a second connection would see another, empty database
  const reader = new SqliteReader(filename);
  readers.set(db, reader);
  // knex's own destroy is read-only; it ends in its client's, which is where the pool closes too.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = (callback?: unknown) => {
    reader.close();
    return destroy(callback);
  };
  return db;
}

/**
 * The rows of one read. The SQL must be portable (backtick-quoted names, `?` bindings) and read
 * committed data only; on MySQL, and inside a transaction, it goes through knex as always.
 */
export async function readRows<Row>(db: Knex, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const reader = readers.get(db);
  if (reader) return reader.all<Row>(sql, bindings);
  const result: unknown = await db.raw(sql, bindings as Knex.RawBinding[]);
  // mysql2 answers [rows, fields]; better-sqlite3 the rows themselves.
  return (db.client.config.client === 'mysql2' ? (result as [Row[], unknown])[0] : result) as Row[];
}

/** The first row of one read (`limit 1` in the SQL), or undefined: readRows for a lookup by key. */
export async function readRow<Row>(db: Knex, sql: string, bindings: readonly unknown[]): Promise<Row | undefined> {
  return (await readRows<Row>(db, sql, bindings))[0];
}
