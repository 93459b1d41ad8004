import { MigrationInterface, QueryRunner } from 'typeorm';

export class PayoutSchedules1795800000000 implements MigrationInterface {
  name = 'PayoutSchedules1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."payout_schedule_cadence" AS ENUM('ONCE', 'WEEKLY', 'BIWEEKLY', 'MONTHLY')`,
    );
    await queryRunner.query(`CREATE TYPE "public"."payout_schedule_payload_kind" AS ENUM('SINGLE', 'BATCH')`);
    await queryRunner.query(
      `CREATE TYPE "public"."payout_schedule_status" AS ENUM('ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "payout_schedules" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" text NOT NULL, "cadence" "public"."payout_schedule_cadence" NOT NULL, "day_of_month" integer, "payload_kind" "public"."payout_schedule_payload_kind" NOT NULL, "status" "public"."payout_schedule_status" NOT NULL DEFAULT 'ACTIVE', "payload" jsonb NOT NULL, "item_count" integer NOT NULL, "start_at" TIMESTAMP WITH TIME ZONE NOT NULL, "next_run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_run_at" TIMESTAMP WITH TIME ZONE, "end_at" TIMESTAMP WITH TIME ZONE, "run_count" integer NOT NULL DEFAULT '0', "max_run_amount_usd" text NOT NULL, "max_run_local_caps" jsonb, "authorized_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_df6e2b320c22a4ab13d901fb57d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payout_schedules_due" ON "payout_schedules"  ("next_run_at") WHERE "status" = 'ACTIVE'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payout_schedules_business_mode_created" ON "payout_schedules"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`CREATE TYPE "public"."payout_schedule_run_status" AS ENUM('SUCCEEDED', 'FAILED')`);
    await queryRunner.query(
      `CREATE TABLE "payout_schedule_runs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "schedule_id" uuid NOT NULL, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "fired_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status" "public"."payout_schedule_run_status" NOT NULL, "reason" text, "payout_ids" uuid array NOT NULL, "batch_id" uuid, CONSTRAINT "PK_4aa7abd2e6d8f86455f3faa6118" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_payout_schedule_runs_occurrence" ON "payout_schedule_runs"  ("schedule_id", "due_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sandbox_clocks" ("business_id" uuid NOT NULL, "offset_seconds" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0576dc1328bdee0eacec6b52ea2" PRIMARY KEY ("business_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sandbox_clocks"`);
    await queryRunner.query(`DROP INDEX "public"."uq_payout_schedule_runs_occurrence"`);
    await queryRunner.query(`DROP TABLE "payout_schedule_runs"`);
    await queryRunner.query(`DROP TYPE "public"."payout_schedule_run_status"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payout_schedules_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_payout_schedules_due"`);
    await queryRunner.query(`DROP TABLE "payout_schedules"`);
    await queryRunner.query(`DROP TYPE "public"."payout_schedule_status"`);
    await queryRunner.query(`DROP TYPE "public"."payout_schedule_payload_kind"`);
    await queryRunner.query(`DROP TYPE "public"."payout_schedule_cadence"`);
  }
}
