import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A dispute the card acquirer reported keeps the acquirer's id of it (Stripe's dispute id), once:
 * its outcome finds it by that id, and a repeated report opens nothing twice (issue 29).
 */
export class AcquirerDisputes1796360000000 implements MigrationInterface {
  name = 'AcquirerDisputes1796360000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "disputes" ADD "acquirer_dispute_id" text`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_disputes_acquirer_dispute" ON "disputes" ("acquirer_dispute_id") WHERE "acquirer_dispute_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_disputes_acquirer_dispute"`);
    await queryRunner.query(`ALTER TABLE "disputes" DROP COLUMN "acquirer_dispute_id"`);
  }
}
