import { MigrationInterface, QueryRunner } from 'typeorm';

export class Payouts1795700000000 implements MigrationInterface {
  name = 'Payouts1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."payout_rail" AS ENUM('LOCAL_BANK', 'MOBILE_MONEY', 'CRYPTO')`);
    await queryRunner.query(
      `CREATE TABLE "payout_recipients" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "label" text NOT NULL, "rail" "public"."payout_rail" NOT NULL, "currency" text NOT NULL, "country" text, "destination_key" text NOT NULL, "details_sealed" text NOT NULL, "details_masked" jsonb NOT NULL, "screened_at" TIMESTAMP WITH TIME ZONE, "archived_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_28ec11ee4aae2b9a718b625684f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payout_recipients_business_mode_created" ON "payout_recipients"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_payout_recipients_destination" ON "payout_recipients"  ("business_id", "livemode", "destination_key") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payout_quotes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "amount" bigint NOT NULL, "currency" text NOT NULL, "destination_currency" text NOT NULL, "dst_amount" bigint NOT NULL, "rate" text NOT NULL, "service_fee" bigint NOT NULL, "country" text NOT NULL, "rail" "public"."payout_rail" NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c93b22d1252608bafcb63b1b55b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."payout_status" AS ENUM('CREATED', 'SUBMITTED', 'SETTLED', 'FAILED', 'CANCELLED', 'PENDING_REVIEW')`,
    );
    await queryRunner.query(
      `CREATE TABLE "payouts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "recipient_id" uuid NOT NULL, "batch_id" uuid, "quote_id" uuid, "rail" "public"."payout_rail" NOT NULL, "status" "public"."payout_status" NOT NULL DEFAULT 'CREATED', "amount" bigint NOT NULL, "currency" text NOT NULL, "service_fee" bigint NOT NULL, "dst_amount" bigint NOT NULL, "destination_currency" text NOT NULL, "rate" text NOT NULL, "country" text NOT NULL, "destination_masked" jsonb NOT NULL, "reference" text, "metadata" jsonb, "provider_ref" text, "failure_reason" text, "submitted_at" TIMESTAMP WITH TIME ZONE, "settled_at" TIMESTAMP WITH TIME ZONE, "reviewed_by" uuid, "reviewed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_76855dc4f0a6c18c72eea302e87" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_payouts_quote" ON "payouts"  ("quote_id") WHERE "quote_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_payouts_batch_created" ON "payouts"  ("batch_id", "created_at") `);
    await queryRunner.query(
      `CREATE INDEX "ix_payouts_recipient_created" ON "payouts"  ("recipient_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payouts_business_mode_created" ON "payouts"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payout_batches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" text, "item_count" integer NOT NULL, "total_amount" bigint NOT NULL, "currency" text NOT NULL, CONSTRAINT "PK_aa57cb1e16d39cc0d41083145e4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payout_batches_business_mode_created" ON "payout_batches"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`ALTER TABLE "business_settings" ADD "payout_review_threshold_usd_minor" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "payout_review_threshold_usd_minor"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payout_batches_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "payout_batches"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payouts_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payouts_recipient_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payouts_batch_created"`);
    await queryRunner.query(`DROP INDEX "public"."uq_payouts_quote"`);
    await queryRunner.query(`DROP TABLE "payouts"`);
    await queryRunner.query(`DROP TYPE "public"."payout_status"`);
    await queryRunner.query(`DROP TABLE "payout_quotes"`);
    await queryRunner.query(`DROP INDEX "public"."uq_payout_recipients_destination"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payout_recipients_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "payout_recipients"`);
    await queryRunner.query(`DROP TYPE "public"."payout_rail"`);
  }
}
