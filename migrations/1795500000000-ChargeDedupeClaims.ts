import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChargeDedupeClaims1795500000000 implements MigrationInterface {
  name = 'ChargeDedupeClaims1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "charge_dedupe_claims" ("business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "dedupe_key" text NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6a91fa8c979cd652a899297db1b" PRIMARY KEY ("business_id", "livemode", "dedupe_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_charge_dedupe_claims_claimed_at" ON "charge_dedupe_claims"  ("claimed_at") `,
    );
    // Charges made in the last window before this migration keep de-duplicating their repeats.
    await queryRunner.query(`INSERT INTO "charge_dedupe_claims" ("business_id", "livemode", "dedupe_key", "claimed_at")
      SELECT "business_id", "livemode", "dedupe_key", max("created_at") FROM "payments"
       WHERE "dedupe_key" IS NOT NULL AND "created_at" > now() - interval '60 seconds'
       GROUP BY "business_id", "livemode", "dedupe_key"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_charge_dedupe_claims_claimed_at"`);
    await queryRunner.query(`DROP TABLE "charge_dedupe_claims"`);
  }
}
