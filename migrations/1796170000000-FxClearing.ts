import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger account kind `fx_clearing`: Tessera's position with the FX provider per mode and
 * currency, through which a card payment settling in another currency (`/v1` `settle_in`) is
 * converted (docs/ledger.md).
 */
export class FxClearing1796170000000 implements MigrationInterface {
  name = 'FxClearing1796170000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."ledger_account_kind" ADD VALUE IF NOT EXISTS 'fx_clearing'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // PostgreSQL cannot drop an enum value: the type is rebuilt without it (fails while an account uses it).
    await queryRunner.query(
      `CREATE TYPE "public"."ledger_account_kind_old" AS ENUM('merchant_wallet', 'end_user_wallet', 'fees_revenue', 'provider_clearing', 'dispute_reserve', 'payout_in_flight', 'sandbox_funding', 'merchant_pending')`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ALTER COLUMN "kind" TYPE "public"."ledger_account_kind_old" USING "kind"::"text"::"public"."ledger_account_kind_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."ledger_account_kind"`);
    await queryRunner.query(`ALTER TYPE "public"."ledger_account_kind_old" RENAME TO "ledger_account_kind"`);
  }
}
