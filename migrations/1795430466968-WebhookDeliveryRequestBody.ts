import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries keep the exact bytes they sign and send (`request_body`), and the headers of their
 * latest request (`request_headers`). Deliveries made before this migration get the bytes their
 * attempts sent until now: their jsonb payload as read back, serialized as `{ event, timestamp, data }`.
 */
export class WebhookDeliveryRequestBody1795430466968 implements MigrationInterface {
  name = 'WebhookDeliveryRequestBody1795430466968';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "request_body" text`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "request_headers" jsonb`);
    for (;;) {
      const rows = (await queryRunner.query(
        `SELECT id, payload FROM "webhook_deliveries" WHERE "request_body" IS NULL ORDER BY id LIMIT 1000`,
      )) as Array<{ id: string; payload: { event: string; timestamp: string; data: unknown } }>;
      if (rows.length === 0) break;
      const bodies = rows.map(({ payload }) =>
        JSON.stringify({ event: payload.event, timestamp: payload.timestamp, data: payload.data }),
      );
      await queryRunner.query(
        `UPDATE "webhook_deliveries" d SET "request_body" = b.body FROM unnest($1::uuid[], $2::text[]) AS b(id, body) WHERE d.id = b.id`,
        [rows.map((row) => row.id), bodies],
      );
    }
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "request_body" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "request_headers"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "request_body"`);
  }
}
