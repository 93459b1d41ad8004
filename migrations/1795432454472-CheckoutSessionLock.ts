import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckoutSessionLock1795432454472 implements MigrationInterface {
  name = 'CheckoutSessionLock1795432454472';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checkout_sessions" ADD "locked_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "checkout_sessions" ADD "lock_reason" text`);
    await queryRunner.query(`ALTER TYPE "public"."checkout_session_status" ADD VALUE 'LOCKED'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."checkout_session_status_old" AS ENUM('OPEN', 'COMPLETED', 'EXPIRED')`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkout_sessions" ALTER COLUMN "status" TYPE "public"."checkout_session_status_old" USING "status"::"text"::"public"."checkout_session_status_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."checkout_session_status"`);
    await queryRunner.query(`ALTER TYPE "public"."checkout_session_status_old" RENAME TO "checkout_session_status"`);
    await queryRunner.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "lock_reason"`);
    await queryRunner.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "locked_at"`);
  }
}
