import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A test clock's advance is recorded and its work fired by background slices (docs/sandbox.md,
 * Test clock): what it counted before the clock moved, what it has fired, running or completed;
 * at most one running per business.
 */
export class ClockAdvances1796270000000 implements MigrationInterface {
  name = 'ClockAdvances1796270000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sandbox_clock_advances" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "seconds" integer NOT NULL, "from_at" TIMESTAMP WITH TIME ZONE NOT NULL, "until_at" TIMESTAMP WITH TIME ZONE NOT NULL, "runs_due" integer NOT NULL, "payouts_due" integer NOT NULL, "runs_fired" integer NOT NULL DEFAULT '0', "status" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5674c12a13e71f1ceb07fc304e8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_sandbox_clock_advances_business" ON "sandbox_clock_advances"  ("business_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_sandbox_clock_advances_running" ON "sandbox_clock_advances"  ("business_id") WHERE "status" = 'running'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_sandbox_clock_advances_running"`);
    await queryRunner.query(`DROP INDEX "public"."ix_sandbox_clock_advances_business"`);
    await queryRunner.query(`DROP TABLE "sandbox_clock_advances"`);
  }
}
