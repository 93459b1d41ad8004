import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wrong payout PINs counted per credential as well as per business (issue 26, finding 8): one
 * credential locks itself out before it can lock out the business.
 */
export class PayoutPinFailures1796260000000 implements MigrationInterface {
  name = 'PayoutPinFailures1796260000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payout_pin_failures" ("business_id" uuid NOT NULL, "credential" text NOT NULL, "failed_attempts" integer NOT NULL DEFAULT '0', "locked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_67aa1d0c43db7d31ec50ed7f242" PRIMARY KEY ("business_id", "credential"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "payout_pin_failures" ADD CONSTRAINT "FK_9a3b00f4c206cdf0472929a72e0" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payout_pin_failures" DROP CONSTRAINT "FK_9a3b00f4c206cdf0472929a72e0"`);
    await queryRunner.query(`DROP TABLE "payout_pin_failures"`);
  }
}
