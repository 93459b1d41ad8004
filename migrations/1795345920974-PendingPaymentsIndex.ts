import { MigrationInterface, QueryRunner } from 'typeorm';

export class PendingPaymentsIndex1795345920974 implements MigrationInterface {
  name = 'PendingPaymentsIndex1795345920974';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_payments_pending_created" ON "payments"  ("created_at") WHERE "status" = 'PENDING'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_payments_pending_created"`);
  }
}
