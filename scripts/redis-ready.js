// Used by .ci/run: answers whether the Redis of a URL answers PING. Exits 0 when it does, 1 otherwise.
const { createClient } = require('redis');

async function main() {
  const client = createClient({ url: process.argv[2], socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  await client.ping();
  await client.destroy();
  console.log('Redis ready');
}

main().catch((error) => {
  console.error(`Redis not ready: ${error.message}`);
  process.exit(1);
});
