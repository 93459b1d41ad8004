import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reconciliation of the card acquirer's balance with the ledger (issue 29; docs/live.md,
 * Reconciliation): each run with its period and counts, the differences it found, and the
 * acquirer's fee on each balance transaction it compared.
 */
export class Reconciliation1796390000000 implements MigrationInterface {
  name = 'Reconciliation1796390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reconciliation_runs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "period_from" TIMESTAMP WITH TIME ZONE NOT NULL, "period_to" TIMESTAMP WITH TIME ZONE NOT NULL, "acquirer" text, "status" text NOT NULL, "transactions" integer NOT NULL, "matched" integer NOT NULL, "skipped" integer NOT NULL, "differences" integer NOT NULL, "fees" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_reconciliation_runs_period" CHECK ("period_to" > "period_from"), CONSTRAINT "PK_reconciliation_runs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reconciliation_runs_period" ON "reconciliation_runs" ("period_from", "period_to")`,
    );
    await queryRunner.query(
      `CREATE TABLE "reconciliation_differences" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "period_from" TIMESTAMP WITH TIME ZONE NOT NULL, "period_to" TIMESTAMP WITH TIME ZONE NOT NULL, "kind" text NOT NULL, "transaction_type" text NOT NULL, "acquirer_transaction_id" text, "acquirer_id" text, "tessera_id" uuid, "acquirer_amount" bigint, "acquirer_currency" text, "ledger_amount" bigint, "ledger_currency" text, CONSTRAINT "PK_reconciliation_differences" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reconciliation_differences_run" ON "reconciliation_differences" ("run_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "reconciliation_fees" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "acquirer_transaction_id" text NOT NULL, "transaction_type" text NOT NULL, "acquirer_id" text, "tessera_id" uuid, "fee" bigint NOT NULL, "currency" text NOT NULL, CONSTRAINT "PK_reconciliation_fees" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_reconciliation_fees_run" ON "reconciliation_fees" ("run_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_reconciliation_fees_run"`);
    await queryRunner.query(`DROP TABLE "reconciliation_fees"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reconciliation_differences_run"`);
    await queryRunner.query(`DROP TABLE "reconciliation_differences"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reconciliation_runs_period"`);
    await queryRunner.query(`DROP TABLE "reconciliation_runs"`);
  }
}
