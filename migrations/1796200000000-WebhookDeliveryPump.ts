import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries are attempted by the workers' delivery pumps, which claim due rows, instead
 * of one graphile-worker job per attempt (docs/performance.md): each delivery says when its next
 * attempt is due (`due_at`) and since when a pump holds it (`claimed_at`). Deliveries
 * waiting for an attempt become due by their own row, and their not yet running jobs go.
 */
export class WebhookDeliveryPump1796200000000 implements MigrationInterface {
  name = 'WebhookDeliveryPump1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "due_at" TIMESTAMP WITH TIME ZONE DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "claimed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "webhook_deliveries" SET "due_at" = CASE WHEN "status" IN ('pending', 'failed') THEN coalesce("next_retry_at", "created_at") END`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("due_at") WHERE "due_at" IS NOT NULL`,
    );
    await queryRunner.query(`
      DO $$ BEGIN
        IF to_regclass('graphile_worker._private_jobs') IS NOT NULL THEN
          DELETE FROM graphile_worker._private_jobs job USING graphile_worker._private_tasks task
           WHERE task.id = job.task_id AND task.identifier = 'deliver_webhook' AND job.locked_at IS NULL;
        END IF;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$ BEGIN
        IF to_regnamespace('graphile_worker') IS NOT NULL THEN
          PERFORM graphile_worker.add_job('deliver_webhook', json_build_object('deliveryId', id), run_at := due_at, job_key := id::text, max_attempts := 3)
             FROM "webhook_deliveries" WHERE "due_at" IS NOT NULL;
        END IF;
      END $$`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_due"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "due_at"`);
  }
}
