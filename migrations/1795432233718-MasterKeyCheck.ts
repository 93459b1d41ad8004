import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The check value of the master key that sealed this database's secrets (one row, written by the
 * first start after this migration; see verifyMasterKey in src/secrets.ts). A process started with
 * another key is refused with one line instead of failing on every sealed secret.
 */
export class MasterKeyCheck1795432233718 implements MigrationInterface {
  name = 'MasterKeyCheck1795432233718';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "master_key_check" ("id" smallint NOT NULL, "check_value" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_master_key_check_single_row" CHECK ("id" = 1), CONSTRAINT "PK_5a1a8f87004406b2906abadd8cc" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "master_key_check"`);
  }
}
