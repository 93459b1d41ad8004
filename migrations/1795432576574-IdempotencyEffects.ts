import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ties an Idempotency-Key to what its request did (docs/decisions.md, "A retried key never repeats
 * an effect that may have happened"): an explicit lease, when a transaction of the request first
 * committed (`effects_at`), and what it made that a retry can answer from (`resource_*`).
 */
export class IdempotencyEffects1795432576574 implements MigrationInterface {
  name = 'IdempotencyEffects1795432576574';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "leased_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "effects_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "resource_type" text`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ADD "resource_id" uuid`);
    // The lease the old code computed (5 minutes from creation). An in-flight key of the old code may
    // have committed its effect already (nothing recorded it), so it is taken to have: never re-run.
    await queryRunner.query(`UPDATE "idempotency_keys" SET "leased_until" = "created_at" + interval '5 minutes',
      "effects_at" = CASE WHEN "state" = 'in_flight' THEN "created_at" END`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" ALTER COLUMN "leased_until" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "resource_id"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "resource_type"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "effects_at"`);
    await queryRunner.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "leased_until"`);
  }
}
