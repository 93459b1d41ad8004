import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reconciliation of any provider's balance, not only the card acquirer's (docs/live.md,
 * Reconciliation): runs and differences carry the provider's name. Existing rows take their run's
 * acquirer; `acquirer` keeps its meaning (the card acquirer compared, null otherwise).
 */
export class ReconciliationProvider1796660000000 implements MigrationInterface {
  name = 'ReconciliationProvider1796660000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reconciliation_runs" ADD "provider" text`);
    await queryRunner.query(`UPDATE "reconciliation_runs" SET "provider" = "acquirer"`);
    await queryRunner.query(`ALTER TABLE "reconciliation_differences" ADD "provider" text`);
    await queryRunner.query(
      `UPDATE "reconciliation_differences" d SET "provider" = r."acquirer" FROM "reconciliation_runs" r WHERE r."id" = d."run_id"`,
    );
    // A difference is only ever found by a run that compared a provider's balance.
    await queryRunner.query(`UPDATE "reconciliation_differences" SET "provider" = 'unknown' WHERE "provider" IS NULL`);
    await queryRunner.query(`ALTER TABLE "reconciliation_differences" ALTER COLUMN "provider" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ix_reconciliation_runs_provider" ON "reconciliation_runs" ("provider", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_reconciliation_runs_provider"`);
    await queryRunner.query(`ALTER TABLE "reconciliation_differences" DROP COLUMN "provider"`);
    await queryRunner.query(`ALTER TABLE "reconciliation_runs" DROP COLUMN "provider"`);
  }
}
