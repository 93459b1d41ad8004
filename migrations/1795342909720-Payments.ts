import { MigrationInterface, QueryRunner } from 'typeorm';

export class Payments1795342909720 implements MigrationInterface {
  name = 'Payments1795342909720';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "customers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "email" text NOT NULL, "user_id" text, "first_name" text, "last_name" text, "phone_number" text, "default_payment_method_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_133ec679a801fab5e070f73d3ea" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_customers_business_mode_email" ON "customers"  ("business_id", "livemode", "email") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_methods" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "customer_id" uuid NOT NULL, "provider_ref" text NOT NULL, "brand" text NOT NULL, "last4" text NOT NULL, "expiry_month" smallint NOT NULL, "expiry_year" smallint NOT NULL, "fingerprint" text NOT NULL, "country" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_34f9b8c6dfb4ac3559f7e2820d1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payment_methods_customer" ON "payment_methods"  ("customer_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."payment_status" AS ENUM('PENDING', 'REQUIRES_ACTION', 'COMPLETED', 'SETTLED', 'FAILED', 'REFUNDED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "payments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "status" "public"."payment_status" NOT NULL DEFAULT 'PENDING', "failure_reason" text, "failure_message" text, "email" text NOT NULL, "customer_id" uuid, "payment_method_id" uuid, "card_brand" text NOT NULL, "card_last4" text NOT NULL, "card_expiry_month" smallint NOT NULL, "card_expiry_year" smallint NOT NULL, "card_fingerprint" text NOT NULL, "card_country" text NOT NULL, "card_provider_ref" text NOT NULL, "source" text NOT NULL DEFAULT 'api', "source_id" uuid, "dedupe_key" text, "three_dsecure" text, "ip_address" text, "metadata" jsonb, "fee_amount" bigint NOT NULL DEFAULT '0', "amount_refunded" bigint NOT NULL DEFAULT '0', "amount_disputed" bigint NOT NULL DEFAULT '0', "captured_at" TIMESTAMP WITH TIME ZONE, "settled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_197ab7af18c93fbb0c9b28b4a59" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payments_fingerprint_created" ON "payments"  ("livemode", "card_fingerprint", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payments_dedupe" ON "payments"  ("business_id", "livemode", "dedupe_key", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payments_customer_created" ON "payments"  ("customer_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payments_business_mode_email" ON "payments"  ("business_id", "livemode", "email") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payments_business_mode_created" ON "payments"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "refunds" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "payment_id" uuid NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "reason" text, "status" text NOT NULL DEFAULT 'succeeded', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5106efb01eeda7e49a78b869738" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_refunds_payment" ON "refunds"  ("payment_id", "created_at") `);
    await queryRunner.query(`CREATE TYPE "public"."dispute_status" AS ENUM('OPEN', 'WON', 'LOST')`);
    await queryRunner.query(
      `CREATE TABLE "disputes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "payment_id" uuid NOT NULL, "amount" bigint NOT NULL, "fee" bigint NOT NULL, "currency" text NOT NULL, "reason" text NOT NULL, "status" "public"."dispute_status" NOT NULL DEFAULT 'OPEN', "resolved_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3c97580d01c1a4b0b345c42a107" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_disputes_business_mode_created" ON "disputes"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_disputes_payment" ON "disputes"  ("payment_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "business_settings" ADD "server_to_server_charging" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "business_settings" ADD "card_fee_bps" integer NOT NULL DEFAULT '290'`);
    await queryRunner.query(`ALTER TABLE "business_settings" ADD "card_fee_fixed_minor" bigint NOT NULL DEFAULT '30'`);
    await queryRunner.query(`ALTER TABLE "business_settings" ADD "dispute_fee_minor" bigint NOT NULL DEFAULT '1500'`);
    await queryRunner.query(`DROP INDEX "public"."uq_ledger_accounts_identity"`);
    await queryRunner.query(`ALTER TYPE "public"."ledger_account_kind" ADD VALUE 'merchant_pending'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ledger_accounts_identity" ON "ledger_accounts"  ("kind", "livemode", "currency", "business_id", "owner_ref") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_ledger_accounts_identity"`);
    await queryRunner.query(
      `CREATE TYPE "public"."ledger_account_kind_old" AS ENUM('merchant_wallet', 'end_user_wallet', 'fees_revenue', 'provider_clearing', 'dispute_reserve', 'payout_in_flight', 'sandbox_funding')`,
    );
    await queryRunner.query(
      `ALTER TABLE "ledger_accounts" ALTER COLUMN "kind" TYPE "public"."ledger_account_kind_old" USING "kind"::"text"::"public"."ledger_account_kind_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."ledger_account_kind"`);
    await queryRunner.query(`ALTER TYPE "public"."ledger_account_kind_old" RENAME TO "ledger_account_kind"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ledger_accounts_identity" ON "ledger_accounts" USING btree ("kind", "business_id", "owner_ref", "livemode", "currency") `,
    );
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "dispute_fee_minor"`);
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "card_fee_fixed_minor"`);
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "card_fee_bps"`);
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "server_to_server_charging"`);
    await queryRunner.query(`DROP INDEX "public"."ix_disputes_payment"`);
    await queryRunner.query(`DROP INDEX "public"."ix_disputes_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "disputes"`);
    await queryRunner.query(`DROP TYPE "public"."dispute_status"`);
    await queryRunner.query(`DROP INDEX "public"."ix_refunds_payment"`);
    await queryRunner.query(`DROP TABLE "refunds"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_business_mode_email"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_customer_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_dedupe"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payments_fingerprint_created"`);
    await queryRunner.query(`DROP TABLE "payments"`);
    await queryRunner.query(`DROP TYPE "public"."payment_status"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payment_methods_customer"`);
    await queryRunner.query(`DROP TABLE "payment_methods"`);
    await queryRunner.query(`DROP INDEX "public"."uq_customers_business_mode_email"`);
    await queryRunner.query(`DROP TABLE "customers"`);
  }
}
