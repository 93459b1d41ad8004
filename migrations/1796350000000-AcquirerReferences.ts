import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The acquirer's id of a payment (Stripe's PaymentIntent) and of a refund (Stripe's Refund): what
 * the recovery sweep, refunds and Stripe's refund webhooks find them by (docs/live.md).
 */
export class AcquirerReferences1796350000000 implements MigrationInterface {
  name = 'AcquirerReferences1796350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payments" ADD "acquirer_reference" text`);
    await queryRunner.query(`ALTER TABLE "refunds" ADD "acquirer_reference" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "refunds" DROP COLUMN "acquirer_reference"`);
    await queryRunner.query(`ALTER TABLE "payments" DROP COLUMN "acquirer_reference"`);
  }
}
