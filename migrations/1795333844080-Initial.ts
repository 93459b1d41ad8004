import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795333844080 implements MigrationInterface {
  name = 'Initial1795333844080';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "name" text NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "businesses" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "email" text NOT NULL, "treasury_enabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bc1bf63498dd2368ce3dc8686e8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "business_settings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "webhook_url" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_be550d64549bda4778cf6f9e0df" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_business_settings_mode" ON "business_settings"  ("business_id", "livemode") `,
    );
    await queryRunner.query(`CREATE TYPE "public"."membership_role" AS ENUM('OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER')`);
    await queryRunner.query(
      `CREATE TABLE "memberships" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "business_id" uuid NOT NULL, "role" "public"."membership_role" NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_25d28bd932097a9e90495ede7b4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_memberships_business" ON "memberships"  ("business_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_memberships_user_business" ON "memberships"  ("user_id", "business_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "api_credentials" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "key_hash" text NOT NULL, "key_hint" text NOT NULL, "key_version" integer NOT NULL DEFAULT '1', "secret_ciphertext" text NOT NULL, "secret_hint" text NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3e97de2b2f8c5d0897b67e89e3c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_credentials_key_hash" ON "api_credentials"  ("key_hash") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_api_credentials_business_mode" ON "api_credentials"  ("business_id", "livemode") `,
    );
    await queryRunner.query(
      `CREATE TABLE "currencies" ("code" text NOT NULL, "exponent" smallint NOT NULL, CONSTRAINT "PK_9f8d0972aeeb5a2277e40332d29" PRIMARY KEY ("code"))`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."ledger_account_kind" AS ENUM('merchant_wallet', 'end_user_wallet', 'fees_revenue', 'provider_clearing', 'dispute_reserve', 'payout_in_flight', 'sandbox_funding')`,
    );
    await queryRunner.query(
      `CREATE TABLE "ledger_accounts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" "public"."ledger_account_kind" NOT NULL, "business_id" uuid NOT NULL, "owner_ref" text NOT NULL DEFAULT '', "livemode" boolean NOT NULL, "currency" text NOT NULL, "balance" bigint NOT NULL DEFAULT '0', "allow_negative" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_ledger_accounts_no_overdraft" CHECK (allow_negative OR balance >= 0), CONSTRAINT "PK_62b34396dda564757cf123fff0e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ledger_accounts_identity" ON "ledger_accounts"  ("kind", "livemode", "currency", "business_id", "owner_ref") `,
    );
    await queryRunner.query(
      `CREATE TABLE "journal_transactions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "kind" text NOT NULL, "reference_type" text, "reference_id" text, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d71a37c90bc6540c375320b9b24" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_journal_transactions_reference" ON "journal_transactions"  ("reference_type", "reference_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "journal_entries" ("seq" BIGSERIAL NOT NULL, "transaction_id" uuid NOT NULL, "account_id" uuid NOT NULL, "currency" text NOT NULL, "amount" bigint NOT NULL, "balance_after" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6eb6002eefef9f7979c71e73513" PRIMARY KEY ("seq"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_journal_entries_transaction" ON "journal_entries"  ("transaction_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_journal_entries_account_seq" ON "journal_entries"  ("account_id", "seq") `,
    );
    await queryRunner.query(
      `CREATE TABLE "events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "livemode" boolean NOT NULL, "type" text NOT NULL, "data" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_events_business_mode_created" ON "events"  ("business_id", "livemode", "created_at") `,
    );
    await queryRunner.query(`CREATE TYPE "public"."idempotency_state" AS ENUM('in_flight', 'completed')`);
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "scope" text NOT NULL, "key" text NOT NULL, "method" text NOT NULL, "path" text NOT NULL, "request_hash" text NOT NULL, "state" "public"."idempotency_state" NOT NULL, "response_status" integer, "response_body" text, "response_content_type" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8ad20779ad0411107a56e53d0f6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_idempotency_keys_expires" ON "idempotency_keys"  ("expires_at") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_idempotency_keys_scope_key" ON "idempotency_keys"  ("scope", "key") `,
    );
    await queryRunner.query(
      `ALTER TABLE "business_settings" ADD CONSTRAINT "FK_df03ffade22f78b9532727d7d47" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_ea5f8019ae03860d8f5fec3e3c6" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_credentials" ADD CONSTRAINT "FK_0bcc2b8f72030fcfb5c5ec866e8" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "journal_entries" ADD CONSTRAINT "FK_31ceb294f983ff5f84bd9c6ed83" FOREIGN KEY ("transaction_id") REFERENCES "journal_transactions"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "journal_entries" ADD CONSTRAINT "FK_438fc3438d595f48c994b4a4894" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    // Currency exponents (design section 3); src/domain/shared/money.ts holds the same table.
    await queryRunner.query(`INSERT INTO "currencies" ("code", "exponent") VALUES
      ('USD', 2), ('EUR', 2), ('GBP', 2), ('CAD', 2), ('AUD', 2), ('CHF', 2), ('NGN', 2), ('KES', 2), ('GHS', 2),
      ('ZAR', 2), ('EGP', 2), ('MAD', 2), ('TZS', 2), ('RWF', 0), ('UGX', 0), ('XOF', 0), ('XAF', 0), ('JPY', 0),
      ('INR', 2), ('BRL', 2), ('MXN', 2), ('USDC', 6)`);
    // The ledger is append-only: a correction is a new journal transaction, never an edit.
    await queryRunner.query(`CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger rows are append-only (% on %)', TG_OP, TG_TABLE_NAME; END $$`);
    await queryRunner.query(`CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON "journal_entries"
      FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
    await queryRunner.query(`CREATE TRIGGER journal_transactions_append_only BEFORE UPDATE OR DELETE ON "journal_transactions"
      FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER journal_transactions_append_only ON "journal_transactions"`);
    await queryRunner.query(`DROP TRIGGER journal_entries_append_only ON "journal_entries"`);
    await queryRunner.query(`DROP FUNCTION ledger_append_only()`);
    await queryRunner.query(`ALTER TABLE "journal_entries" DROP CONSTRAINT "FK_438fc3438d595f48c994b4a4894"`);
    await queryRunner.query(`ALTER TABLE "journal_entries" DROP CONSTRAINT "FK_31ceb294f983ff5f84bd9c6ed83"`);
    await queryRunner.query(`ALTER TABLE "api_credentials" DROP CONSTRAINT "FK_0bcc2b8f72030fcfb5c5ec866e8"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_ea5f8019ae03860d8f5fec3e3c6"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051"`);
    await queryRunner.query(`ALTER TABLE "business_settings" DROP CONSTRAINT "FK_df03ffade22f78b9532727d7d47"`);
    await queryRunner.query(`DROP INDEX "public"."uq_idempotency_keys_scope_key"`);
    await queryRunner.query(`DROP INDEX "public"."ix_idempotency_keys_expires"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    await queryRunner.query(`DROP TYPE "public"."idempotency_state"`);
    await queryRunner.query(`DROP INDEX "public"."ix_events_business_mode_created"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP INDEX "public"."ix_journal_entries_account_seq"`);
    await queryRunner.query(`DROP INDEX "public"."ix_journal_entries_transaction"`);
    await queryRunner.query(`DROP TABLE "journal_entries"`);
    await queryRunner.query(`DROP INDEX "public"."ix_journal_transactions_reference"`);
    await queryRunner.query(`DROP TABLE "journal_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_ledger_accounts_identity"`);
    await queryRunner.query(`DROP TABLE "ledger_accounts"`);
    await queryRunner.query(`DROP TYPE "public"."ledger_account_kind"`);
    await queryRunner.query(`DROP TABLE "currencies"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_credentials_business_mode"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_credentials_key_hash"`);
    await queryRunner.query(`DROP TABLE "api_credentials"`);
    await queryRunner.query(`DROP INDEX "public"."uq_memberships_user_business"`);
    await queryRunner.query(`DROP INDEX "public"."ix_memberships_business"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP TYPE "public"."membership_role"`);
    await queryRunner.query(`DROP INDEX "public"."uq_business_settings_mode"`);
    await queryRunner.query(`DROP TABLE "business_settings"`);
    await queryRunner.query(`DROP TABLE "businesses"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
