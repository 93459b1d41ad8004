import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `/v1` transfers (each a payout, with what only `/v1` knows of it: the recipient as the transfer
 * named it) and the wallets' low-balance thresholds per business, mode and currency
 * (`wallet.low_balance`).
 */
export class V1TransfersLowBalance1796150000000 implements MigrationInterface {
  name = 'V1TransfersLowBalance1796150000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "v1_transfers" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "recipient" jsonb NOT NULL, CONSTRAINT "PK_v1_transfers" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "v1_transfers" ADD CONSTRAINT "FK_v1_transfers_payout" FOREIGN KEY ("id") REFERENCES "payouts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "wallet_low_balance_thresholds" ("business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "currency" text NOT NULL, "threshold" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_wallet_low_balance_thresholds" PRIMARY KEY ("business_id", "livemode", "currency"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "wallet_low_balance_thresholds" ADD CONSTRAINT "FK_wallet_low_balance_thresholds_business" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "wallet_low_balance_thresholds"`);
    await queryRunner.query(`DROP TABLE "v1_transfers"`);
  }
}
