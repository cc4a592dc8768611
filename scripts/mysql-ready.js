// Used by .ci/run: connects to the MySQL server of a URL and creates its database if missing.
// Exits 0 when the database is ready, 1 otherwise.
const mysql = require('mysql2/promise');

async function main() {
  const url = new URL(process.argv[2]);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'test';
  url.pathname = '/';
  const connection = await mysql.createConnection({ uri: url.toString(), connectTimeout: 3000 });
  await connection.query('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4', [database]);
  await connection.end();
  console.log(`MySQL ready: database ${database}`);
}

main().catch((error) => {
  console.error(`MySQL not ready: ${error.message}`);
  process.exit(1);
});
