import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a recorded sanctions match refused (issue 30; docs/live.md, Sanctions screening): a
 * recipient create or a payout schedule, so that the operator sees the request's outcome. Null on
 * the matches recorded before (refused too; which request was not kept).
 */
export class SanctionsMatchRequest1796700000000 implements MigrationInterface {
  name = 'SanctionsMatchRequest1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sanctions_matches" ADD "request" text`);
    await queryRunner.query(
      `ALTER TABLE "sanctions_matches" ADD CONSTRAINT "ck_sanctions_matches_request" CHECK ("request" IN ('recipient', 'payout_schedule'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sanctions_matches" DROP CONSTRAINT "ck_sanctions_matches_request"`);
    await queryRunner.query(`ALTER TABLE "sanctions_matches" DROP COLUMN "request"`);
  }
}
