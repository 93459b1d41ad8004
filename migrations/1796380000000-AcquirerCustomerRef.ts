import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The card acquirer's customer of a Tessera customer (Stripe's `cus_…`), which its saved cards are
 * attached to (issue 29); null until a card is saved with such an acquirer.
 */
export class AcquirerCustomerRef1796380000000 implements MigrationInterface {
  name = 'AcquirerCustomerRef1796380000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "customers" ADD "acquirer_customer_ref" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "customers" DROP COLUMN "acquirer_customer_ref"`);
  }
}
