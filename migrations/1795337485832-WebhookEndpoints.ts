import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEndpoints1795337485832 implements MigrationInterface {
  name = 'WebhookEndpoints1795337485832';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."webhook_endpoint_status" AS ENUM('enabled', 'disabled')`);
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "status" "public"."webhook_endpoint_status" NOT NULL DEFAULT 'enabled', "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_endpoints_business_mode_created" ON "webhook_endpoints"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "endpoint_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_endpoint_created" ON "webhook_deliveries"  ("endpoint_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_d040923ed8f6dc87f9266e9528a" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_d040923ed8f6dc87f9266e9528a"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_endpoint_created"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "endpoint_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_endpoints_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
    await queryRunner.query(`DROP TYPE "public"."webhook_endpoint_status"`);
  }
}
