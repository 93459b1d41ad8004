import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alternate reference surface `/v1` (design section 11): businesses carry `verified` (only a
 * verified business gets `/v1` keys and access), the `/v1` secret keys (hashed for lookup, sealed
 * because events are signed with them; one active key per business and mode), and the `/v1`
 * payments (each a checkout session of source `v1`, with what only `/v1` knows of it).
 */
export class V1Surface1796100000000 implements MigrationInterface {
  name = 'V1Surface1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "businesses" ADD "verified" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE TABLE "v1_api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "key_hash" text NOT NULL, "key_hint" text NOT NULL, "key_ciphertext" text NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_v1_api_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_v1_api_keys_key_hash" ON "v1_api_keys" ("key_hash") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_v1_api_keys_active" ON "v1_api_keys" ("business_id", "livemode") WHERE "revoked_at" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "v1_api_keys" ADD CONSTRAINT "FK_v1_api_keys_business" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "v1_payments" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "settle_in" text NOT NULL, "webhook_url" text, CONSTRAINT "PK_v1_payments" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_v1_payments_business_mode_created" ON "v1_payments" ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "v1_payments" ADD CONSTRAINT "FK_v1_payments_session" FOREIGN KEY ("id") REFERENCES "checkout_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "v1_payments"`);
    await queryRunner.query(`DROP TABLE "v1_api_keys"`);
    await queryRunner.query(`ALTER TABLE "businesses" DROP COLUMN "verified"`);
  }
}
