import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Organizations1795332071711 implements MigrationInterface {
  name = 'Organizations1795332071711';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "invitation" ("id" uuid NOT NULL, "organization_id" integer NOT NULL, "project_id" integer, "email" text NOT NULL, "org_role" text, "project_role" text, "project_only" boolean NOT NULL DEFAULT false, "status" text NOT NULL, "token_hash" text NOT NULL, "invited_by" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, "send_count" integer NOT NULL DEFAULT \'1\', "responded_at" TIMESTAMP WITH TIME ZONE, "responded_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_b827d3749ffbb3b5ab5099afd64" UNIQUE ("token_hash"), CONSTRAINT "PK_beb994737756c0f18a1c1f8669c" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_org_per_email" ON "invitation"  ("organization_id", "email") WHERE status = \'pending\' AND project_id IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_per_email" ON "invitation"  ("organization_id", "project_id", "email") WHERE status = \'pending\' AND project_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "invitation_email_pending_idx" ON "invitation"  ("email") WHERE status = \'pending\'',
    );
    await queryRunner.query(
      'CREATE INDEX "invitation_organization_idx" ON "invitation"  ("organization_id", "project_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "membership_version" ("organization_id" integer NOT NULL, "project_id" integer NOT NULL, "user_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_6909da8dd5e2bbe4c440166dc5d" PRIMARY KEY ("organization_id", "project_id", "user_id"))',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation" ADD CONSTRAINT "FK_de7c148c7834d738ac7113f3dd8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation" ADD CONSTRAINT "FK_1aafdec6a4fdc59160583e38c83" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "organization_membership" ADD CONSTRAINT "FK_9ca5d2cb892f7d4a8ff6eebd420" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "organization_membership" DROP CONSTRAINT "FK_9ca5d2cb892f7d4a8ff6eebd420"',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation" DROP CONSTRAINT "FK_1aafdec6a4fdc59160583e38c83"',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation" DROP CONSTRAINT "FK_de7c148c7834d738ac7113f3dd8"',
    );
    await queryRunner.query('DROP TABLE "membership_version"');
    await queryRunner.query('DROP INDEX "public"."invitation_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."invitation_email_pending_idx"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_per_email"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_org_per_email"');
    await queryRunner.query('DROP TABLE "invitation"');
  }
}
