import { MigrationInterface, QueryRunner } from 'typeorm';

export class TreasuryWebhookEndpoints1795343101160 implements MigrationInterface {
  name = 'TreasuryWebhookEndpoints1795343101160';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."webhook_registry" AS ENUM('merchant', 'treasury')`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD "registry" "public"."webhook_registry" NOT NULL DEFAULT 'merchant'`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "secret_ciphertext" text`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "secret_hint" text`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "previous_secret_ciphertext" text`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "api_version" text`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "partner_id" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "partner_id"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "api_version"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_expires_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_ciphertext"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "secret_hint"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "secret_ciphertext"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "registry"`);
    await queryRunner.query(`DROP TYPE "public"."webhook_registry"`);
  }
}
