import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDatabase, type BenchDatabase } from './databases';
import { CEILING_SCRIPT, load, round2, SERVER_SCRIPT, whileRunning, type Load } from './http';
import { seedCustomers, serviceEnv } from './list';

export interface CreateBenchResult {
  case: 'create';
  database: string;
  connections: number;
  create: Load;
  ceiling: Load;
  /** Created per second over the bare handler's (target ≥ 0.6). */
  ratio: number;
  target: string;
}

const BODY = JSON.stringify({ first_name: 'Anna', last_name: 'Bakker', email: 'anna@example.nl' });

/**
 * `POST /api/v2/customers` with the sandbox provider, `connections` at once, against the built
 * service; the ceiling is a bare express handler doing the same insert into the same database.
 */
export async function benchCreate(options: {
  connections: number;
  seconds: number;
  database: BenchDatabase['kind'];
}): Promise<CreateBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-create-'));
  const database = await benchDatabase(options.database, dir);
  try {
    const { token, accountId } = await seedCustomers(database.url, dir, 0);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const posting = (url: string) =>
      load({
        url: `${url}/api/v2/customers`,
        method: 'POST',
        connections: options.connections,
        seconds: options.seconds,
        headers,
        body: BODY,
      });
    const create = await whileRunning(SERVER_SCRIPT, serviceEnv(database.url, dir), posting);
    const ceiling = await whileRunning(CEILING_SCRIPT, { CEILING_DATABASE_URL: database.url, CEILING_ACCOUNT_ID: accountId }, posting);
    return {
      case: 'create',
      database: options.database,
      connections: options.connections,
      create,
      ceiling,
      ratio: round2(create.requestsPerSecond / ceiling.requestsPerSecond),
      target: '≥ 0.6 × the bare handler',
    };
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
