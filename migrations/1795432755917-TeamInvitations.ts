import { MigrationInterface, QueryRunner } from 'typeorm';

export class TeamInvitations1795432755917 implements MigrationInterface {
  name = 'TeamInvitations1795432755917';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."team_invitation_status" AS ENUM('PENDING', 'ACCEPTED', 'DECLINED', 'REVOKED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "team_invitations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "business_id" uuid NOT NULL, "email" text NOT NULL, "role" "public"."membership_role" NOT NULL, "status" "public"."team_invitation_status" NOT NULL DEFAULT 'PENDING', "invited_by_user_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "responded_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c14b443d431077f89344a3fd262" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_team_invitations_email" ON "team_invitations"  ("email", "created_at") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_team_invitations_pending" ON "team_invitations"  ("business_id", "email") WHERE "status" = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_team_invitations_pending"`);
    await queryRunner.query(`DROP INDEX "public"."ix_team_invitations_email"`);
    await queryRunner.query(`DROP TABLE "team_invitations"`);
    await queryRunner.query(`DROP TYPE "public"."team_invitation_status"`);
  }
}
