import { MigrationInterface, QueryRunner } from 'typeorm';

/** The operator's tokens for GraphQL's operator fields (docs/graphql-api.md, Operator API), kept as hashes. */
export class OperatorTokens1796650000000 implements MigrationInterface {
  name = 'OperatorTokens1796650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "operator_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "token_hash" text NOT NULL, "token_hint" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_operator_tokens" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_operator_tokens_token_hash" ON "operator_tokens" ("token_hash")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_operator_tokens_token_hash"`);
    await queryRunner.query(`DROP TABLE "operator_tokens"`);
  }
}
