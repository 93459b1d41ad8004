import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRuntime } from '../src/runtime';
import { StartupError } from '../src/startup-error';
import { TestServer, startTestServer, testConfig } from './support/harness';
import { SPAWN_PATIENCE_MS, freePort, spawnBudget, spawnTs } from './support/process';

/**
 * Finding 11 (a): a master key that cannot open the stored secrets is refused at start-up, by the
 * server and by the CLI, with one line naming TESSERA_MASTER_KEY and the data directory; it never
 * starts a server that answers 500 on token exchange, nor seals secrets no one else can open.
 */
describe('finding 11: a master key that does not match the database is refused at start-up', () => {
  let server: TestServer;
  let scratch: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.signUp(); // seals an API secret with the server's key
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-master-key-'));
  });
  afterAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await server.close();
  });

  const count = async (table: string) =>
    Number((await server.runtime.dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

  async function failed(entry: string, args: string[], env: Record<string, string>) {
    const run = spawnTs(entry, args, {
      DATABASE_URL: server.databaseUrl,
      JWT_SECRET: 'any-jwt-secret',
      WORKER_IN_PROCESS: 'false',
      ...env,
    });
    const timer = setTimeout(() => run.child.kill('SIGKILL'), SPAWN_PATIENCE_MS);
    const code = await run.exited;
    clearTimeout(timer);
    const errorLines = run.errorOutput().trim().split('\n');
    expect(code).toBe(1);
    expect(errorLines).toHaveLength(1);
    expect(run.output()).not.toMatch(/^\s+at /m);
    return errorLines[0];
  }

  test(
    'the server started with another TESSERA_MASTER_KEY exits 1 with one line naming the key and the data directory',
    async () => {
      const line = await failed('src/main.ts', [], {
        TESSERA_MASTER_KEY: 'not-the-servers-key',
        TESSERA_DATA_DIR: path.join(scratch, 'server'),
        PORT: String(await freePort()),
      });
      expect(line).toMatch(
        /^\[tessera\] The master key does not open the secrets stored in this database: it is not the key they were sealed with; this one was set in TESSERA_MASTER_KEY\. Set TESSERA_MASTER_KEY to the key the server uses, or run with the server's data directory \(TESSERA_DATA_DIR/,
      );
    },
    spawnBudget(1),
  );

  test("the CLI run without the server's data directory refuses instead of generating a key, and writes no key", async () => {
    const dataDir = path.join(scratch, 'elsewhere');
    const businesses = await count('businesses');
    const line = await failed(
      'src/cli/index.ts',
      [
        'business',
        'create',
        '--name',
        'Wrong Key Ltd',
        '--email',
        'ops@wrong-key.test',
        '--password',
        'long enough password',
      ],
      {
        TESSERA_MASTER_KEY: '',
        TESSERA_DATA_DIR: dataDir,
      },
    );
    expect(JSON.parse(line).error).toBe(
      `No master key: TESSERA_MASTER_KEY is not set and ${dataDir}/secrets.json does not exist. ` +
        "Set TESSERA_MASTER_KEY to the server's key, or TESSERA_DATA_DIR to the server's data directory.",
    );
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(await count('businesses')).toBe(businesses);
  }, 90_000);

  test(
    'the CLI with another TESSERA_MASTER_KEY refuses with one line naming the key and the data directory',
    async () => {
      const businesses = await count('businesses');
      const line = await failed(
        'src/cli/index.ts',
        [
          'business',
          'create',
          '--name',
          'Wrong Key Ltd',
          '--email',
          'ops@wrong-key.test',
          '--password',
          'long enough password',
        ],
        {
          TESSERA_MASTER_KEY: 'not-the-servers-key',
          TESSERA_DATA_DIR: path.join(scratch, 'cli'),
        },
      );
      expect(JSON.parse(line).error).toMatch(
        /^The master key does not open the secrets stored in this database: it is not the key they were sealed with; this one was set in TESSERA_MASTER_KEY\. Set TESSERA_MASTER_KEY/,
      );
      expect(await count('businesses')).toBe(businesses);
    },
    spawnBudget(1),
  );

  test('a database sealed before the check existed is judged by its stored secrets, then remembers the key', async () => {
    await server.runtime.dataSource.query(`DELETE FROM master_key_check`);
    const config = (masterKey: string) =>
      testConfig(server.databaseUrl, { masterKey, dataDir: path.join(scratch, 'in-process') });
    await expect(openRuntime(config('not-the-servers-key'))).rejects.toThrow(StartupError);
    expect(await count('master_key_check')).toBe(0);

    const runtime = await openRuntime(config('test-master-key'));
    await runtime.close();
    expect(await count('master_key_check')).toBe(1);
    await expect(openRuntime(config('not-the-servers-key'))).rejects.toThrow(
      /does not open the secrets stored in this database/,
    );
  });

  test('a new database records the key of its first start', async () => {
    const [row] = await server.runtime.dataSource.query(`SELECT check_value FROM master_key_check`);
    expect(row.check_value).toMatch(/^[0-9a-f]{64}$/);
    expect(row.check_value).not.toContain('test-master-key');
  });
});
