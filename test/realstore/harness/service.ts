import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, SERVICE_DIR, SERVICE_URL, STATE, SUITE_FILE, serviceEnv, type SuiteState } from './config';

const SERVER = path.join(ROOT, 'dist/src/server.js');
const CLI = path.join(ROOT, 'dist/src/cli.js');
/** Where realstore's stop.sh looks for a service a harness started: it stops that one too. */
const PID_FILE = path.join(STATE, 'service.pid');
export const SERVICE_LOG = path.join(SERVICE_DIR, 'service.log');

/**
 * Starts the built service in its own process group (it outlives globalSetup, which returns before the
 * tests run), its output in service.log, and waits until it answers /healthz.
 */
export async function startService(): Promise<void> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: npm run test:store builds it first`);
  rmSync(SERVICE_DIR, { recursive: true, force: true });
  mkdirSync(SERVICE_DIR, { recursive: true });
  const log = openSync(SERVICE_LOG, 'a');
  const child = spawn(process.execPath, [SERVER], { cwd: ROOT, env: serviceEnv(), stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  child.unref();
  writeFileSync(PID_FILE, `${child.pid}\n`);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited at start: ${readFileSync(SERVICE_LOG, 'utf8')}`);
    const up = await fetch(`${SERVICE_URL}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) throw new Error(`the service did not start within 20 s: ${readFileSync(SERVICE_LOG, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM to the service's process group (by the pid recorded at start), then waits until it is gone. */
export async function stopService(): Promise<void> {
  const pid = existsSync(PID_FILE) ? Number(readFileSync(PID_FILE, 'utf8').trim()) : 0;
  if (!pid) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, 'SIGTERM');
  for (let waited = 0; alive() && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) process.kill(-pid, 'SIGKILL');
  rmSync(PID_FILE, { force: true });
}

/** One command of the built CLI against the service's database, as its operator would run it. */
export function cli(...args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: serviceEnv(), encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.status}: ${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * The same, without blocking this process: for a command that calls back into it (the Mollie fake a
 * scenario serves over HTTPS here answers only while this process's event loop runs).
 */
export function cliAsync(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: serviceEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`cli ${args.join(' ')} exited ${String(code)}: ${stdout}\n${stderr}`));
    });
  });
}

/** The public reference of an account of the service (its provider webhooks' `account=`), from its database. */
export function accountRef(name: string): string {
  const db = new Database(path.join(SERVICE_DIR, 'service.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT public_ref FROM accounts WHERE name = ?').get(name) as { public_ref: string } | undefined;
    if (!row) throw new Error(`no account ${name}`);
    return row.public_ref;
  } finally {
    db.close();
  }
}

export function suiteState(): SuiteState {
  return JSON.parse(readFileSync(SUITE_FILE, 'utf8')) as SuiteState;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/**
 * The service's API v2 as the account's client (the token globalSetup made). A connection per call: the
 * suite's CLI and store scripts block this process, and a kept-alive connection the service closed (after
 * 5 s idle) meanwhile would be reused as it closes ("other side closed").
 */
export async function api<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<ApiAnswer<T>> {
  const res = await fetch(`${SERVICE_URL}${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${suiteState().token}`,
      Accept: 'application/json',
      Connection: 'close',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * What the provider does for a recurring charge: it calls the service's webhook with the payment's id
 * (the sandbox settles a pending charge when the service then reads it). The ids are read from the
 * sandbox provider's own table in the service's database, as Mollie would know its payments.
 */
export interface ProviderCharge {
  id: string;
  /** In cents, as the provider was asked to charge it. */
  amount: number;
  currency: string;
  /** What the charge says it is for: the subscription's name and the period's date. */
  description: string;
}

export async function providerCallsForPendingCharges(): Promise<ProviderCharge[]> {
  const db = new Database(path.join(SERVICE_DIR, 'service.sqlite'), { readonly: true });
  let pending: Array<ProviderCharge & { ref: string }>;
  try {
    pending = db
      .prepare(
        `SELECT sandbox_payments.id AS id, sandbox_payments.amount AS amount, sandbox_payments.currency AS currency,
                sandbox_payments.description AS description,
                accounts.public_ref AS ref FROM sandbox_payments
         JOIN accounts ON accounts.id = sandbox_payments.account_id
         WHERE sandbox_payments.sequence_type = 'recurring' AND sandbox_payments.status = 'pending'`,
      )
      .all() as Array<ProviderCharge & { ref: string }>;
  } finally {
    db.close();
  }
  for (const { id, ref } of pending) {
    const res = await fetch(`${SERVICE_URL}/webhooks/mollie?account=${ref}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Connection: 'close' },
      body: new URLSearchParams({ id }).toString(),
    });
    if (!res.ok) throw new Error(`the provider webhook for ${id} answered ${res.status}`);
  }
  return pending.map(({ id, amount, currency, description }) => ({ id, amount: Number(amount), currency, description }));
}

/** What the provider was asked for one of its payments (the store order's `transaction_id`), from the sandbox's own table. */
export function providerPayment(id: string): { amount: number; currency: string; sequence_type: string } | undefined {
  const db = new Database(path.join(SERVICE_DIR, 'service.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT amount, currency, sequence_type FROM sandbox_payments WHERE id = ?').get(id) as
      { amount: number | bigint; currency: string; sequence_type: string } | undefined;
    return row && { amount: Number(row.amount), currency: row.currency, sequence_type: row.sequence_type };
  } finally {
    db.close();
  }
}
