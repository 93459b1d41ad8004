import { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../src/db/data-source';
import { installJobQueue } from '../src/jobs/worker';
import { migrations } from '../migrations';
import { createTestDatabase, dropTestDatabase } from './support/harness';

describe('several processes migrating one database at once', () => {
  let databaseUrl: string;
  let processes: DataSource[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    processes = [
      createDataSource({ url: databaseUrl, poolSize: 2 }),
      createDataSource({ url: databaseUrl, poolSize: 2 }),
    ];
    await Promise.all(processes.map((dataSource) => dataSource.initialize()));
  });
  afterAll(async () => {
    await Promise.all(processes.map((dataSource) => dataSource.destroy()));
    await dropTestDatabase(databaseUrl);
  });

  test('one runs every migration and the other, after it, none; neither fails', async () => {
    const ran = await Promise.all(processes.map((dataSource) => runMigrations(dataSource)));
    expect(ran.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, migrations.length]);
  });

  test("both installing the job queue's schema at once succeed", async () => {
    await expect(Promise.all([installJobQueue(databaseUrl), installJobQueue(databaseUrl)])).resolves.toHaveLength(2);
    const [{ count }] = await processes[0].query(`SELECT count(*)::int AS count FROM graphile_worker.migrations`);
    expect(count).toBeGreaterThan(0);
  });
});
