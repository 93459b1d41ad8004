import { MigrationInterface, QueryRunner } from 'typeorm';

export class PayoutPins1795600000000 implements MigrationInterface {
  name = 'PayoutPins1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One PIN per business for both modes, kept as a scrypt hash; goes with the business.
    await queryRunner.query(
      `CREATE TABLE "payout_pins" ("business_id" uuid NOT NULL, "pin_hash" text NOT NULL, "failed_attempts" integer NOT NULL DEFAULT '0', "locked_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_92527eaa3533c48b94bd00c2ad2" PRIMARY KEY ("business_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "payout_pins" ADD CONSTRAINT "FK_92527eaa3533c48b94bd00c2ad2" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payout_pins" DROP CONSTRAINT "FK_92527eaa3533c48b94bd00c2ad2"`);
    await queryRunner.query(`DROP TABLE "payout_pins"`);
  }
}
