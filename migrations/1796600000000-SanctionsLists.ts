import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sanctions lists loaded from their official files for live screening (issue 30; docs/live.md,
 * Sanctions screening): each list with its file's date and hash, its entries with their names and
 * normalised forms, and the matches live screening recorded for the operator.
 */
export class SanctionsLists1796600000000 implements MigrationInterface {
  name = 'SanctionsLists1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sanctions_lists" ("list" text NOT NULL, "published_at" TIMESTAMP WITH TIME ZONE, "loaded_at" TIMESTAMP WITH TIME ZONE NOT NULL, "entries" integer NOT NULL, "sha256" text NOT NULL, "source" text NOT NULL, CONSTRAINT "PK_7b046847be4beaf811daac5b490" PRIMARY KEY ("list"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sanctions_entries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "list" text NOT NULL, "entry_id" text NOT NULL, "type" text NOT NULL, "primary_name" text NOT NULL, "aliases" text array NOT NULL, "weak_aliases" text array NOT NULL, "normalized_names" text array NOT NULL, CONSTRAINT "uq_sanctions_entries_entry" UNIQUE ("list", "entry_id"), CONSTRAINT "PK_3154150439d2a8edd2f837c093d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sanctions_matches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "list" text NOT NULL, "entry_id" text NOT NULL, "entry_name" text NOT NULL, "matched_name" text NOT NULL, "screened_name" text NOT NULL, "score" double precision NOT NULL, "business_id" uuid, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_588fa18f4f5987cadaaa3eeb7ff" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_sanctions_matches_created" ON "sanctions_matches"  ("created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_sanctions_matches_created"`);
    await queryRunner.query(`DROP TABLE "sanctions_matches"`);
    await queryRunner.query(`DROP TABLE "sanctions_entries"`);
    await queryRunner.query(`DROP TABLE "sanctions_lists"`);
  }
}
