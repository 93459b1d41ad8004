import { DataSource } from 'typeorm';
import { ReconciliationProvider1796660000000 } from '../migrations/1796660000000-ReconciliationProvider';
import { createDataSource } from '../src/db/data-source';
import { createTestDatabase, dropTestDatabase } from './support/harness';

/**
 * Runs and differences recorded before reconciliation was per provider (docs/live.md,
 * Reconciliation, Other providers) take their run's acquirer as their provider; `acquirer` keeps
 * its value, and a run that compared nothing keeps no provider.
 */
describe('the migration that gives reconciliation runs and differences their provider', () => {
  let databaseUrl: string;
  let dataSource: DataSource;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase({ migrated: true });
    dataSource = createDataSource({ url: databaseUrl, poolSize: 1 });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await dropTestDatabase(databaseUrl);
  });

  test("existing runs and differences take their run's acquirer; a run of nothing to compare keeps none", async () => {
    const migration = new ReconciliationProvider1796660000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const [compared] = await runner.query(
        `INSERT INTO reconciliation_runs (period_from, period_to, acquirer, status, transactions, matched, skipped, differences, fees)
         VALUES ('2026-11-01', '2026-11-02', 'stripe', 'compared', 2, 1, 0, 1, '{}') RETURNING id`,
      );
      await runner.query(
        `INSERT INTO reconciliation_runs (period_from, period_to, acquirer, status, transactions, matched, skipped, differences, fees)
         VALUES ('2026-11-01', '2026-11-02', NULL, 'nothing_to_compare', 0, 0, 0, 0, '{}')`,
      );
      await runner.query(
        `INSERT INTO reconciliation_differences (run_id, period_from, period_to, kind, transaction_type, acquirer_id)
         VALUES ($1, '2026-11-01', '2026-11-02', 'missing_in_ledger', 'charge', 'pi_old')`,
        [compared.id],
      );
      await migration.up(runner);
      expect(await runner.query(`SELECT acquirer, provider, status FROM reconciliation_runs ORDER BY status`)).toEqual([
        { acquirer: 'stripe', provider: 'stripe', status: 'compared' },
        { acquirer: null, provider: null, status: 'nothing_to_compare' },
      ]);
      expect(await runner.query(`SELECT provider, acquirer_id FROM reconciliation_differences`)).toEqual([
        { provider: 'stripe', acquirer_id: 'pi_old' },
      ]);
    } finally {
      await runner.release();
    }
  });
});
