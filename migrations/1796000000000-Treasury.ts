import { MigrationInterface, QueryRunner } from 'typeorm';

/** Treasury (design section 10): end-users, KYC checks, end-user wallets and treasury payouts. */
export class Treasury1796000000000 implements MigrationInterface {
  name = 'Treasury1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."treasury_end_user_status" AS ENUM('pending_kyc', 'active', 'rejected')`,
    );
    await queryRunner.query(`CREATE TYPE "public"."treasury_kyc_level" AS ENUM('basic', 'full')`);
    await queryRunner.query(`CREATE TYPE "public"."treasury_kyc_status" AS ENUM('PENDING', 'APPROVED', 'REJECTED')`);
    await queryRunner.query(`CREATE TYPE "public"."treasury_wallet_status" AS ENUM('active')`);
    await queryRunner.query(
      `CREATE TYPE "public"."treasury_payout_status" AS ENUM('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED')`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."treasury_destination_type" AS ENUM('bank_account', 'crypto', 'mobile_money')`,
    );
    await queryRunner.query(
      `CREATE TABLE "treasury_end_users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "external_id" text NOT NULL, "email" text NOT NULL, "name" text, "phone" text, "metadata" jsonb, "status" "public"."treasury_end_user_status" NOT NULL DEFAULT 'pending_kyc', CONSTRAINT "PK_treasury_end_users" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_treasury_end_users_external_id" ON "treasury_end_users" ("business_id", "livemode", "external_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_treasury_end_users_business_mode_created" ON "treasury_end_users" ("business_id", "livemode", "created_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "treasury_kyc_checks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "end_user_id" uuid NOT NULL, "level" "public"."treasury_kyc_level" NOT NULL, "status" "public"."treasury_kyc_status" NOT NULL DEFAULT 'PENDING', "rejection_reasons" text array NOT NULL DEFAULT '{}', "provider" text NOT NULL, "provider_ref" text NOT NULL, "hosted_token" text NOT NULL, "kyc_link_url" text NOT NULL, "decided_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_treasury_kyc_checks" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_treasury_kyc_checks_pending" ON "treasury_kyc_checks" ("end_user_id") WHERE "status" = 'PENDING'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_treasury_kyc_checks_end_user_created" ON "treasury_kyc_checks" ("end_user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_treasury_kyc_checks_hosted_token" ON "treasury_kyc_checks" ("hosted_token")`,
    );
    await queryRunner.query(
      `CREATE TABLE "treasury_wallets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "end_user_id" uuid NOT NULL, "currency" text NOT NULL, "ledger_account_id" uuid NOT NULL, "status" "public"."treasury_wallet_status" NOT NULL DEFAULT 'active', "deposit_account" jsonb NOT NULL, CONSTRAINT "PK_treasury_wallets" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_treasury_wallets_end_user_currency" ON "treasury_wallets" ("end_user_id", "currency")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_treasury_wallets_end_user_created" ON "treasury_wallets" ("end_user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "treasury_payouts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "end_user_id" uuid NOT NULL, "wallet_id" uuid NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "destination_type" "public"."treasury_destination_type" NOT NULL, "destination_details" jsonb NOT NULL, "destination_sealed" text NOT NULL, "status" "public"."treasury_payout_status" NOT NULL DEFAULT 'PENDING', "metadata" jsonb, "failure_reason" text, "provider_ref" text, "processing_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_treasury_payouts" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_treasury_payouts_business_mode_created" ON "treasury_payouts" ("business_id", "livemode", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_treasury_payouts_wallet_created" ON "treasury_payouts" ("wallet_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "treasury_payouts"`);
    await queryRunner.query(`DROP TABLE "treasury_wallets"`);
    await queryRunner.query(`DROP TABLE "treasury_kyc_checks"`);
    await queryRunner.query(`DROP TABLE "treasury_end_users"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_destination_type"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_payout_status"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_wallet_status"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_kyc_status"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_kyc_level"`);
    await queryRunner.query(`DROP TYPE "public"."treasury_end_user_status"`);
  }
}
