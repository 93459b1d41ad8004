import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `/v1` business-level webhook URL of each mode (docs/alt-v1.md, Events), apart from the main
 * surface's `webhook_url`: `/v1` events (their own body, `Service-Signature`, minor units) never go
 * to the main surface's URL or endpoints (issue 27).
 */
export class V1WebhookUrl1796290000000 implements MigrationInterface {
  name = 'V1WebhookUrl1796290000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "business_settings" ADD "v1_webhook_url" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "business_settings" DROP COLUMN "v1_webhook_url"`);
  }
}
