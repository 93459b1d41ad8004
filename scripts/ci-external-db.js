// Used by .ci/run: `create` prints the URL of a fresh database on 127.0.0.1:5432 (exit 1 when no
// server answers); `drop <url>` removes that database and the per-test databases made on it.
const { Client } = require('pg');

const ADMIN = process.env.CI_POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function main() {
  const [command, url] = process.argv.slice(2);
  const admin = new Client({ connectionString: ADMIN, connectionTimeoutMillis: 2000 });
  await admin.connect();
  try {
    if (command === 'create') {
      const name = `tessera_ci_${Date.now()}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const target = new URL(ADMIN);
      target.pathname = `/${name}`;
      process.stdout.write(target.toString());
    } else if (command === 'drop') {
      const name = new URL(url).pathname.slice(1);
      const { rows } = await admin.query(
        `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE 'tessera_test_%'`,
        [name],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

main().catch(() => process.exit(1));
