import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Captured payments of a business and mode by capture time: what the dashboard's payment volume
 * (GraphQL paymentVolume) reads, so that "today" reads today's rows and not the business's whole
 * history. Partial: a payment never captured (PENDING, FAILED) has no entry.
 */
export class PaymentCapturedIndex1796710000000 implements MigrationInterface {
  name = 'PaymentCapturedIndex1796710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_payments_business_mode_captured" ON "payments" ("business_id", "livemode", "captured_at") WHERE "captured_at" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_payments_business_mode_captured"`);
  }
}
