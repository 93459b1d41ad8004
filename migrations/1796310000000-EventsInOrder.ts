import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event's `created_at` is the moment it is recorded (`clock_timestamp()`), not its transaction's
 * start (`now()`): the events one transaction records (a sandbox collection payment's
 * `collection.processing` then `collection.failed`) keep their order in every list sorted by time.
 */
export class EventsInOrder1796310000000 implements MigrationInterface {
  name = 'EventsInOrder1796310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "created_at" SET DEFAULT now()`);
  }
}
