import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCROOT, REALSTORE, RS_DB, STATE, STORE_URL, storeEnv } from './config';

/** Runs one of realstore's scripts; its output goes into the error when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { env, encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * setup.sh: the store from nothing (or what is missing), with the plugin zip installed and active;
 * with `wcs`, WooCommerce Subscriptions 7.8.2 installed and active too (RS_WCS=1). Run again on a
 * running store it only adds what is missing (and sets the store's options again: taxes off).
 */
export function setUpStore(pluginZip: string, options: { wcs?: boolean } = {}): string {
  // The suite says where the extension is installed (its own describe), whatever RS_WCS the caller's environment has: on a
  // fresh store with RS_WCS=1 the extension, active first, has WordPress list the plugins before the zip is unpacked, and
  // the zip's activation then fails ("The plugin does not have a valid header").
  return run('bash', [path.join(REALSTORE, 'setup.sh')], storeEnv({ RS_PLUGIN_ZIP: pluginZip, RS_WCS: options.wcs ? '1' : '0' }));
}

/**
 * PHP run inside the store (wp-load.php loaded, as the admin user), for what neither REST nor a page
 * does: its output. The code comes from the tests themselves, never from a request.
 */
export function wpEval(php: string): string {
  const boot =
    `$_SERVER['HTTP_HOST'] = '127.0.0.1:' . getenv('RS_PORT'); $_SERVER['REQUEST_URI'] = '/'; ` +
    `require ${JSON.stringify(path.join(DOCROOT, 'wp-load.php'))}; wp_set_current_user(1); `;
  return run('php', ['-r', boot + php], storeEnv());
}

/** stop.sh with RS_PURGE=1: the server stopped, its database dropped, its files removed. */
export function purgeStore(): string {
  return run('bash', [path.join(REALSTORE, 'stop.sh')], storeEnv({ RS_PURGE: '1' }));
}

/**
 * The cart and checkout pages as classic shortcodes or WooCommerce's blocks: setup.sh's configure
 * phase with RS_CHECKOUT. It sets the store's options again too (taxes off).
 */
export function useCheckout(kind: 'classic' | 'block'): void {
  run('php', [path.join(REALSTORE, 'lib', 'wp-setup.php'), DOCROOT, 'configure', STATE], storeEnv({ RS_CHECKOUT: kind }));
}

/** The due Action Scheduler actions now (webhook deliveries among them), instead of WP-Cron's minute. */
export function runQueue(): void {
  run('php', [path.join(REALSTORE, 'lib', 'run-queue.php'), DOCROOT], storeEnv());
}

function restKey(): { key: string; secret: string } {
  const env = Object.fromEntries(
    readFileSync(path.join(STATE, 'wc-api-key.env'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { key: String(env.WC_CONSUMER_KEY), secret: String(env.WC_CONSUMER_SECRET) };
}

const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

export interface RestAnswer<T> {
  status: number;
  body: T;
}

/**
 * A wc/v3 call with setup's REST key, signed with OAuth 1.0a in the query string (WooCommerce's only
 * auth over plain http), as the store's own set-up signs its calls.
 */
export async function wc<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<RestAnswer<T>> {
  const { key, secret } = restKey();
  const url = new URL(`${STORE_URL}/wp-json/wc/v3/${route.replace(/^\//, '')}`);
  const oauth: Record<string, string> = {
    oauth_consumer_key: key,
    oauth_nonce: randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA256',
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const pairs = [...url.searchParams.entries(), ...Object.entries(oauth)]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : 1) : ak < bk ? -1 : 1));
  const base = [method, rfc3986(url.origin + url.pathname), rfc3986(pairs.map(([k, v]) => `${k}=${v}`).join('&'))].join('&');
  oauth.oauth_signature = createHmac('sha256', `${secret}&`).update(base).digest('base64');
  for (const [k, v] of Object.entries(oauth)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A wc/v3 call that must succeed; its answer's body. */
export async function wcOk<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<T> {
  const answer = await wc<T>(method, route, body);
  if (answer.status >= 300) throw new Error(`${method} ${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Sends the store's webhook deliveries (run-queue) until `check` holds, or throws its last failure
 * after `withinMs`: what a real store does within a minute (WP-Cron), in the time a test can wait.
 */
export async function untilDelivered<T>(check: () => Promise<T>, withinMs = 30_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    runQueue();
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** One query to the store's database (mysql client): the rows, tab-separated, without the header. */
export function storeQuery(sql: string): string[][] {
  const result = spawnSync(
    'mysql',
    [
      '-h',
      process.env.MYSQL_HOST ?? '127.0.0.1',
      '-P',
      process.env.MYSQL_PORT ?? '3306',
      '-u',
      process.env.MYSQL_USER ?? 'root',
      ...(process.env.MYSQL_PASSWORD ? [`-p${process.env.MYSQL_PASSWORD}`] : []),
      '-N',
      '-B',
      '-e',
      sql,
      RS_DB,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`mysql: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
}
