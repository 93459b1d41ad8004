import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment's events (payment.* carry `data.paymentId`) by business, mode and payment: what the
 * dashboard's payment page reads (GraphQL Payment.events), so one payment's handful of events is
 * found without scanning the business's event log. Partial: other events have no entry.
 */
export class EventPaymentIndex1796770000000 implements MigrationInterface {
  name = 'EventPaymentIndex1796770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_events_payment" ON "events" ("business_id", "livemode", ("data"->>'paymentId'), "created_at") WHERE "data" ? 'paymentId'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_events_payment"`);
  }
}
