import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomersTokensFraud1795343224636 implements MigrationInterface {
  name = 'CustomersTokensFraud1795343224636';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "card_tokens" ("id" text NOT NULL, "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "provider_ref" text NOT NULL, "brand" text NOT NULL, "last4" text NOT NULL, "bin" text NOT NULL, "expiry_month" smallint NOT NULL, "expiry_year" smallint NOT NULL, "fingerprint" text NOT NULL, "country" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_98f9be14d5a240bf00f8b3f29bb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_card_tokens_expires" ON "card_tokens"  ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "fraud_rules" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "type" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "values" text array NOT NULL DEFAULT '{}', "amount" bigint, "currency" text, "max_attempts_per_hour" integer, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5fabae585c6ce9ec162fc31d5d9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_fraud_rules_business_mode" ON "fraud_rules"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "fraud_blocklist" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "type" text NOT NULL, "value" text NOT NULL, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5fb1ca35adbe88dda5424f81729" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_fraud_blocklist_created" ON "fraud_blocklist"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_fraud_blocklist_value" ON "fraud_blocklist"  ("business_id", "livemode", "type", "value") `,
    );
    // Existing credentials get a publishable key too (it is public, so a random UUID's hex is enough).
    await queryRunner.query(`ALTER TABLE "api_credentials" ADD "publishable_key" text`);
    await queryRunner.query(
      `UPDATE "api_credentials" SET "publishable_key" = CASE WHEN "livemode" THEN 'pk_live_' ELSE 'pk_test_' END || replace(gen_random_uuid()::text, '-', '')`,
    );
    await queryRunner.query(`ALTER TABLE "api_credentials" ALTER COLUMN "publishable_key" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "payment_methods" ADD "bin" text NOT NULL DEFAULT ''`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_api_credentials_publishable_key" ON "api_credentials"  ("publishable_key") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_customers_business_mode_created" ON "customers"  ("business_id", "livemode", "created_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_customers_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_credentials_publishable_key"`);
    await queryRunner.query(`ALTER TABLE "payment_methods" DROP COLUMN "bin"`);
    await queryRunner.query(`ALTER TABLE "api_credentials" DROP COLUMN "publishable_key"`);
    await queryRunner.query(`DROP INDEX "public"."uq_fraud_blocklist_value"`);
    await queryRunner.query(`DROP INDEX "public"."ix_fraud_blocklist_created"`);
    await queryRunner.query(`DROP TABLE "fraud_blocklist"`);
    await queryRunner.query(`DROP INDEX "public"."ix_fraud_rules_business_mode"`);
    await queryRunner.query(`DROP TABLE "fraud_rules"`);
    await queryRunner.query(`DROP INDEX "public"."ix_card_tokens_expires"`);
    await queryRunner.query(`DROP TABLE "card_tokens"`);
  }
}
