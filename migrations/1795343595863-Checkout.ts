import { MigrationInterface, QueryRunner } from 'typeorm';

export class Checkout1795343595863 implements MigrationInterface {
  name = 'Checkout1795343595863';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."checkout_session_status" AS ENUM('OPEN', 'COMPLETED', 'EXPIRED')`);
    await queryRunner.query(
      `CREATE TABLE "checkout_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "token" text NOT NULL, "status" "public"."checkout_session_status" NOT NULL DEFAULT 'OPEN', "amount" bigint NOT NULL, "currency" text NOT NULL, "customer_email" text, "success_url" text, "cancel_url" text, "description" text, "metadata" jsonb, "source" text NOT NULL DEFAULT 'api', "source_id" uuid, "recurring_interval" text, "recurring_opt_in" boolean NOT NULL DEFAULT false, "payment_id" uuid, "attempt_payment_id" uuid, "claimed_until" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5730b2bbc190203a94941d82bd1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_checkout_sessions_source" ON "checkout_sessions"  ("source_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_checkout_sessions_business_mode_created" ON "checkout_sessions"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_checkout_sessions_token" ON "checkout_sessions"  ("token") `);
    await queryRunner.query(`CREATE TYPE "public"."recurring_gift_status" AS ENUM('ACTIVE', 'PAUSED', 'CANCELLED')`);
    await queryRunner.query(
      `CREATE TABLE "recurring_gifts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "payment_link_id" uuid NOT NULL, "checkout_session_id" uuid NOT NULL, "customer_id" uuid NOT NULL, "payment_method_id" uuid NOT NULL, "email" text NOT NULL, "amount" bigint NOT NULL, "currency" text NOT NULL, "interval" text NOT NULL, "status" "public"."recurring_gift_status" NOT NULL DEFAULT 'ACTIVE', "next_charge_at" TIMESTAMP WITH TIME ZONE, "charge_count" integer NOT NULL DEFAULT '0', "failure_count" integer NOT NULL DEFAULT '0', "last_charge_at" TIMESTAMP WITH TIME ZONE, "last_payment_id" uuid, "last_error" text, "claimed_until" TIMESTAMP WITH TIME ZONE, "paused_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6f232de3bdcbc4e7e5a39ab32c0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_recurring_gifts_link" ON "recurring_gifts"  ("payment_link_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_recurring_gifts_business_mode_created" ON "recurring_gifts"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "token" text NOT NULL, "name" text NOT NULL, "description" text, "amount" bigint NOT NULL, "currency" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "allow_recurring" boolean NOT NULL DEFAULT false, "recurring_interval" text, "success_url" text, "metadata" jsonb, "deactivated_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5b176ff8200166713c53d6c3ada" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payment_links_business_mode_created" ON "payment_links"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_payment_links_token" ON "payment_links"  ("token") `);
    await queryRunner.query(`CREATE TYPE "public"."invoice_status" AS ENUM('DRAFT', 'OPEN', 'PAID', 'VOID')`);
    await queryRunner.query(
      `CREATE TABLE "invoices" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "number" integer NOT NULL, "invoice_number" text NOT NULL, "status" "public"."invoice_status" NOT NULL DEFAULT 'DRAFT', "customer_email" text NOT NULL, "currency" text NOT NULL, "items" jsonb NOT NULL, "total_amount" bigint NOT NULL, "description" text, "due_date" date, "success_url" text, "metadata" jsonb, "checkout_session_id" uuid, "checkout_url" text, "payment_id" uuid, "finalized_at" TIMESTAMP WITH TIME ZONE, "paid_at" TIMESTAMP WITH TIME ZONE, "voided_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_668cef7c22a427fd822cc1be3ce" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_invoices_business_mode_created" ON "invoices"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_invoices_business_mode_number" ON "invoices"  ("business_id", "livemode", "number") `,
    );
    await queryRunner.query(
      `CREATE TABLE "invoice_counters" ("business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "last_number" integer NOT NULL, CONSTRAINT "PK_3b6cc6e38f133512d416caf5845" PRIMARY KEY ("business_id", "livemode"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "invoice_counters"`);
    await queryRunner.query(`DROP INDEX "public"."uq_invoices_business_mode_number"`);
    await queryRunner.query(`DROP INDEX "public"."ix_invoices_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "invoices"`);
    await queryRunner.query(`DROP TYPE "public"."invoice_status"`);
    await queryRunner.query(`DROP INDEX "public"."uq_payment_links_token"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payment_links_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "payment_links"`);
    await queryRunner.query(`DROP INDEX "public"."ix_recurring_gifts_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_recurring_gifts_link"`);
    await queryRunner.query(`DROP TABLE "recurring_gifts"`);
    await queryRunner.query(`DROP TYPE "public"."recurring_gift_status"`);
    await queryRunner.query(`DROP INDEX "public"."uq_checkout_sessions_token"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkout_sessions_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkout_sessions_source"`);
    await queryRunner.query(`DROP TABLE "checkout_sessions"`);
    await queryRunner.query(`DROP TYPE "public"."checkout_session_status"`);
  }
}
