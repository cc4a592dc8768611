import { existsSync, writeFileSync } from 'node:fs';
import { CHROMIUM, PLUGIN_ZIP, REALSTORE, RS_ROOT, STORE_URL, SERVICE_URL, SUITE_FILE, hasRealStore, type SuiteState } from './config';
import { purgeStore, setUpStore, useCheckout } from './realStore';
import { cli, startService } from './service';

/**
 * Once for the suite: a fresh store (the previous run's purged) with the plugin zip, and the built
 * service with one account and its API token. Without the real store (REALSTORE, config.ts) or Chromium nothing is
 * set up and the tests are skipped (store.test.ts says so).
 */
export default async function globalSetup(): Promise<void> {
  if (!hasRealStore() || !existsSync(CHROMIUM)) return;
  if (!existsSync(PLUGIN_ZIP)) throw new Error(`${PLUGIN_ZIP} is missing: npm run test:store builds it first`);
  const started = Date.now();
  purgeStore();
  setUpStore(PLUGIN_ZIP);
  // setup.sh's first run sets the permalinks before WooCommerce's endpoints are in the rewrite rules:
  // /checkout/order-received/… and /wc-api/… answer 404 until the rules are made again (its configure phase).
  useCheckout('classic');
  await startService();
  const token = cli('tokens', 'create', '--account', 'Realstore suite').trim().split('\n').pop() ?? '';
  const state: SuiteState = { token };
  writeFileSync(SUITE_FILE, JSON.stringify(state), { mode: 0o600 });
  console.log(
    `\nstore suite: store ${STORE_URL} (${RS_ROOT}, from ${REALSTORE}) and service ${SERVICE_URL} ready in ${Date.now() - started} ms`,
  );
}
