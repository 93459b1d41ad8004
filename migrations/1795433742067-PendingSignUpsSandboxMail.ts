import { MigrationInterface, QueryRunner } from 'typeorm';

export class PendingSignUpsSandboxMail1795433742067 implements MigrationInterface {
  name = 'PendingSignUpsSandboxMail1795433742067';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "pending_sign_ups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "email" text NOT NULL, "password_hash" text NOT NULL, "name" text NOT NULL, "business_name" text NOT NULL, "code_hash" text, "attempts" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c584be359be056beafdb63a70c0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_pending_sign_ups_token_hash" ON "pending_sign_ups"  ("token_hash") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_pending_sign_ups_expires_at" ON "pending_sign_ups"  ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "sandbox_mail" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "recipient" text NOT NULL, "subject" text NOT NULL, "text" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_55bf21ec59f2dde9da70f43e221" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_sandbox_mail_recipient" ON "sandbox_mail"  ("recipient", "created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_sandbox_mail_recipient"`);
    await queryRunner.query(`DROP TABLE "sandbox_mail"`);
    await queryRunner.query(`DROP INDEX "public"."ix_pending_sign_ups_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pending_sign_ups_token_hash"`);
    await queryRunner.query(`DROP TABLE "pending_sign_ups"`);
  }
}
