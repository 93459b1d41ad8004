import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The providers' webhooks inbox (docs/architecture.md, Providers' webhooks: the inbox): each event a
 * provider sends, stored once per provider and event id, and when its handler's writes committed.
 */
export class ProviderEvents1796330000000 implements MigrationInterface {
  name = 'ProviderEvents1796330000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "provider_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "provider" text NOT NULL, "event_id" text NOT NULL, "type" text NOT NULL, "livemode" boolean NOT NULL, "payload" jsonb NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "applied_at" TIMESTAMP WITH TIME ZONE, "outcome" text, "attempts" integer NOT NULL DEFAULT '0', "last_error" text, CONSTRAINT "uq_provider_events_event" UNIQUE ("provider", "event_id"), CONSTRAINT "ck_provider_events_outcome" CHECK ("outcome" IN ('applied', 'ignored') AND "applied_at" IS NOT NULL OR "outcome" IS NULL AND "applied_at" IS NULL), CONSTRAINT "PK_provider_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_provider_events_unapplied" ON "provider_events" ("received_at") WHERE "applied_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_provider_events_unapplied"`);
    await queryRunner.query(`DROP TABLE "provider_events"`);
  }
}
