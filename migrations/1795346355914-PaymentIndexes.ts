import { MigrationInterface, QueryRunner } from 'typeorm';

export class PaymentIndexes1795346355914 implements MigrationInterface {
  name = 'PaymentIndexes1795346355914';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_payments_source" ON "payments"  ("source_id", "created_at") `);
    await queryRunner.query(
      `CREATE INDEX "ix_payments_pending_created" ON "payments"  ("created_at") WHERE "status" = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_payments_pending_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_source"`);
  }
}
