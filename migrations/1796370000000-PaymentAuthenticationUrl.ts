import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The acquirer's 3-D Secure page of a payment waiting for it (Stripe's `redirect_to_url`): where
 * the payer is sent, shown as the payment's next action (issue 29).
 */
export class PaymentAuthenticationUrl1796370000000 implements MigrationInterface {
  name = 'PaymentAuthenticationUrl1796370000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payments" ADD "authentication_url" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payments" DROP COLUMN "authentication_url"`);
  }
}
