import { WooSimulator } from '../fakes/woocommerce/simulator';

/**
 * The WooCommerce simulator in a process of its own, holding BENCH_STORE_ORDERS orders and answering
 * after BENCH_STORE_LATENCY_MS, so the memory and work of the store's records are not the measured
 * process's. Prints `{"url","consumerKey","consumerSecret"}` on its first line.
 */
async function main(): Promise<void> {
  const store = new WooSimulator();
  store.cacheLists = true;
  await store.start();
  store.addOrders(Number(process.env.BENCH_STORE_ORDERS ?? 0));
  store.latencyMs = Number(process.env.BENCH_STORE_LATENCY_MS ?? 0);
  process.stdout.write(`${JSON.stringify({ url: store.url, consumerKey: store.consumerKey, consumerSecret: store.consumerSecret })}\n`);
  process.on('SIGTERM', () => void store.stop().then(() => process.exit(0)));
}

void main();
