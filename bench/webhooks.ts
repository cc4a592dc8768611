import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { setProviderSettings } from '../src/modules/accounts/providerSettings';
import { createToken } from '../src/modules/accounts/service';
import { systemClock } from '../src/time';
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { benchDatabase, type BenchDatabase } from './databases';
import { round2, SERVER_SCRIPT, startNode } from './http';
import { APP_KEY, serviceEnv } from './list';
import { peakRssOfProcess } from './memory';

export interface WebhooksBenchResult {
  case: 'webhooks';
  database: string;
  calls: number;
  /** Milliseconds from the first call sent to the last payment recorded paid, per call. */
  perItemMs: number;
  /** The service process's peak resident memory (it ran nothing else). */
  peakRssMb: number | null;
  answered200: number;
  answerP99Ms: number;
  /** From the first call sent to the last payment recorded as paid. */
  processedSeconds: number;
  lost: number;
  target: string;
}

/** Shaped like a Mollie test key; the provider is the in-process fake. */
const MOLLIE_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';
/** The target: every call of a burst processed within two minutes. */
const PROCESSING_LIMIT_MS = 120_000;
/**
 * The provider's senders: at most this many calls in flight at once, each on a connection of its own
 * (as Mollie calls: one request, then the connection closes). A burst of 10,000 is then the service
 * accepting and answering calls as fast as they come, not the kernel's queue of 10,000 half-open
 * connections on a 2-core machine.
 */
const SENDERS = 500;

/** POSTs `body` on a new connection of the senders' pool; answers the status. */
function post(agent: Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** The fake in its own process (bench/mollieFakeServer.ts): its TLS work stays out of the measuring loop. */
async function startMollieFake(): Promise<{ apiUrl: string; controlUrl: string; stop(): void }> {
  const child = spawn(process.execPath, [path.resolve(__dirname, 'mollieFakeServer.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error('the Mollie fake stopped')));
  });
  const { apiUrl, controlUrl } = JSON.parse(firstLine) as { apiUrl: string; controlUrl: string };
  return { apiUrl, controlUrl, stop: () => child.kill('SIGTERM') };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/**
 * `calls` payments made through the built service on Mollie (the HTTPS fake), all paid at "Mollie";
 * then one webhook call per payment posted at once. Measured: each call's answer time, how long until
 * every payment is recorded paid, and how many never are.
 */
export async function benchWebhooks(options: { calls: number; database: BenchDatabase['kind'] }): Promise<WebhooksBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-webhooks-'));
  const database = await benchDatabase(options.database, dir);
  const mollie = await startMollieFake();
  try {
    const { config } = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      APP_KEY,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://rps.example',
    });
    const { ctx } = await createContext(config, createLogger('warn'));
    try {
      const { account, token } = await createToken(ctx.db, systemClock, 'Bench');
      await setProviderSettings(ctx, 'Bench', { mollieApiKey: MOLLIE_KEY, allowLive: false, mollieApiUrl: mollie.apiUrl });
      // The fake's certificate is self-signed: only this child trusts it.
      const service = await startNode(SERVER_SCRIPT, { ...serviceEnv(database.url, dir), NODE_TLS_REJECT_UNAUTHORIZED: '0' });
      try {
        const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
        const customer = (await (
          await fetch(`${service.url}/api/v2/customers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ first_name: 'Anna', last_name: 'Bakker', email: 'anna@example.nl' }),
          })
        ).json()) as { provider_customer_id: string };
        const providerIds: string[] = [];
        for (let start = 0; start < options.calls; start += 16) {
          const batch = Array.from({ length: Math.min(16, options.calls - start) }, async () => {
            const res = await fetch(`${service.url}/api/v2/payments`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                amount: 10,
                currency: 'EUR',
                provider_customer_id: customer.provider_customer_id,
                description: 'Bench',
                redirect_url: 'https://shop.example/thanks',
              }),
            });
            if (res.status !== 201) throw new Error(`payment: ${res.status} ${await res.text()}`);
            return ((await res.json()) as { provider_payment_id: string }).provider_payment_id;
          });
          providerIds.push(...(await Promise.all(batch)));
        }
        await fetch(`${mollie.controlUrl}/pay-all`, { method: 'POST' });

        const senders = new Agent({ keepAlive: false, maxSockets: SENDERS });
        const url = `${service.url}/webhooks/mollie?account=${account.public_ref}`;
        const answers: Array<{ status: number; ms: number }> = [];
        let next = 0;
        const began = performance.now();
        // SENDERS senders, each sending the next call as soon as its last one was answered; a call's
        // answer time counts from when it was sent.
        const sender = async () => {
          while (next < providerIds.length) {
            const id = providerIds[next++] as string;
            const sent = performance.now();
            const status = await post(senders, url, `id=${id}`).catch(() => 0);
            answers.push({ status, ms: performance.now() - sent });
          }
        };
        await Promise.all(Array.from({ length: Math.min(SENDERS, providerIds.length) }, sender));
        senders.destroy();
        let paid = 0;
        while (performance.now() - began < PROCESSING_LIMIT_MS) {
          const [row] = (await ctx.db('payments').where({ account_id: account.id, status: 'paid' }).count({ n: '*' })) as Array<{
            n: number | string;
          }>;
          paid = Number(row?.n ?? 0);
          if (paid >= providerIds.length) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const processedSeconds = round2((performance.now() - began) / 1000);
        return {
          case: 'webhooks',
          database: options.database,
          calls: providerIds.length,
          perItemMs: Number(((processedSeconds * 1000) / providerIds.length).toFixed(3)),
          peakRssMb: peakRssOfProcess(service.child.pid ?? 0),
          answered200: answers.filter((answer) => answer.status === 200).length,
          answerP99Ms: Math.round(
            percentile(
              answers.map((answer) => answer.ms),
              99,
            ),
          ),
          processedSeconds,
          lost: providerIds.length - paid,
          target: `all answered 200, p99 < 1 s (${SENDERS} senders); all processed within 2 minutes; none lost`,
        };
      } finally {
        await service.stop();
      }
    } finally {
      await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
    }
  } finally {
    mollie.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
