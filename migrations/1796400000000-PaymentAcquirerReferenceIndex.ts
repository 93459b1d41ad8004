import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments by the acquirer's id (Stripe's PaymentIntent): how an acquirer's own event about a
 * payment (a dispute) finds it without asking the acquirer, and what reconciliation joins on.
 */
export class PaymentAcquirerReferenceIndex1796400000000 implements MigrationInterface {
  name = 'PaymentAcquirerReferenceIndex1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_payments_acquirer_reference" ON "payments" ("acquirer_reference") WHERE "acquirer_reference" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_payments_acquirer_reference"`);
  }
}
