import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries say what they were addressed to (`target`: `webhook_url` or `endpoint`), because
 * `endpoint_id` alone cannot: it becomes null when an endpoint is deleted. Rows made before this
 * migration are classified by what they still show: an endpoint id or a treasury partner means an
 * endpoint; neither is taken for the webhookUrl (a delivery to a merchant endpoint deleted before
 * this migration cannot be told apart and is listed with the webhookUrl's).
 */
export class WebhookDeliveryTarget1795430787467 implements MigrationInterface {
  name = 'WebhookDeliveryTarget1795430787467';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "target" text`);
    await queryRunner.query(
      `UPDATE "webhook_deliveries" SET "target" = CASE WHEN "endpoint_id" IS NULL AND "partner_id" IS NULL THEN 'webhook_url' ELSE 'endpoint' END`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "target" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_webhook_url_created" ON "webhook_deliveries"  ("business_id", "livemode", "created_at") WHERE "target" = 'webhook_url'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_webhook_url_created"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "target"`);
  }
}
