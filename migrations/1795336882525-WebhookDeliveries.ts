import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveries1795336882525 implements MigrationInterface {
  name = 'WebhookDeliveries1795336882525';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'succeeded', 'failed', 'permanently_failed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "event_id" uuid NOT NULL, "event_type" text NOT NULL, "url" text NOT NULL, "payload" jsonb NOT NULL, "status" "public"."webhook_delivery_status" NOT NULL DEFAULT 'pending', "attempt_count" integer NOT NULL DEFAULT '0', "last_attempt_at" TIMESTAMP WITH TIME ZONE, "next_retry_at" TIMESTAMP WITH TIME ZONE, "response_status" integer, "response_body" text, "response_time_ms" integer, "error_message" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_event" ON "webhook_deliveries"  ("event_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_business_mode_created" ON "webhook_deliveries"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_business_mode_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_event"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TYPE "public"."webhook_delivery_status"`);
  }
}
