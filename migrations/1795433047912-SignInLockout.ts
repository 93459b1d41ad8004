import { MigrationInterface, QueryRunner } from 'typeorm';

export class SignInLockout1795433047912 implements MigrationInterface {
  name = 'SignInLockout1795433047912';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "failed_sign_ins" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "users" ADD "failed_sign_ins_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "sign_in_locked_until" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "sign_in_locked_until"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "failed_sign_ins_since"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "failed_sign_ins"`);
  }
}
