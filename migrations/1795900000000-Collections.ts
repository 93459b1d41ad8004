import { MigrationInterface, QueryRunner } from 'typeorm';

export class Collections1795900000000 implements MigrationInterface {
  name = 'Collections1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."collection_status" AS ENUM('pending', 'processing', 'completed', 'failed', 'expired')`,
    );
    await queryRunner.query(`CREATE TYPE "public"."collection_rail" AS ENUM('bank', 'momo', 'eft')`);
    await queryRunner.query(
      `CREATE TABLE "collections" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "status" "public"."collection_status" NOT NULL DEFAULT 'pending', "amount" bigint NOT NULL, "currency" text NOT NULL, "country" text NOT NULL, "rail" "public"."collection_rail" NOT NULL, "provider" text NOT NULL, "channel_id" text, "network_id" text, "customer" jsonb NOT NULL, "instructions" jsonb NOT NULL, "rail_instructions" jsonb NOT NULL, "metadata" jsonb, "business_payment_id" text NOT NULL, "source" text NOT NULL, "checkout_session_id" uuid, "hosted_token" text NOT NULL, "provider_ref" text, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "amount_received" bigint, "failure_reason" text, "settlement_rate" text, "settlement_gross" bigint, "settlement_fee" bigint, "settlement_net" bigint, "processing_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, "failed_at" TIMESTAMP WITH TIME ZONE, "expired_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_21c00b1ebbd41ba1354242c5c4e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_collections_session" ON "collections"  ("checkout_session_id") WHERE "checkout_session_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_collections_session_open" ON "collections"  ("checkout_session_id", "rail") WHERE "checkout_session_id" IS NOT NULL AND "status" IN ('pending', 'processing')`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_collections_hosted_token" ON "collections"  ("hosted_token") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_collections_business_payment_id" ON "collections"  ("business_id", "livemode", "business_payment_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_collections_pending_expiry" ON "collections"  ("business_id", "livemode", "expires_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_collections_business_mode_created" ON "collections"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "checkout_sessions" ADD "payment_methods" text array NOT NULL DEFAULT '{card}'`,
    );
    await queryRunner.query(`ALTER TABLE "checkout_sessions" ADD "collection_id" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "collection_id"`);
    await queryRunner.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "payment_methods"`);
    await queryRunner.query(`DROP INDEX "public"."ix_collections_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_collections_pending_expiry"`);
    await queryRunner.query(`DROP INDEX "public"."uq_collections_business_payment_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_collections_hosted_token"`);
    await queryRunner.query(`DROP INDEX "public"."uq_collections_session_open"`);
    await queryRunner.query(`DROP INDEX "public"."ix_collections_session"`);
    await queryRunner.query(`DROP TABLE "collections"`);
    await queryRunner.query(`DROP TYPE "public"."collection_rail"`);
    await queryRunner.query(`DROP TYPE "public"."collection_status"`);
  }
}
