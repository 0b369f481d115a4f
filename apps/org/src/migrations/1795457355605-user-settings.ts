import type { MigrationInterface, QueryRunner } from 'typeorm';

export class UserSettings1795457355605 implements MigrationInterface {
  name = 'UserSettings1795457355605';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "pinned_project" ("user_id" uuid NOT NULL, "project_id" integer NOT NULL, "organization_id" integer NOT NULL, "position" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_707091e6100773c921b2980bc31" PRIMARY KEY ("user_id", "project_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "pinned_project_organization_idx" ON "pinned_project"  ("organization_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "pinned_project_project_idx" ON "pinned_project"  ("project_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "pinned_project_user_organization_idx" ON "pinned_project"  ("user_id", "organization_id", "position") ',
    );
    await queryRunner.query(
      'CREATE TABLE "user_settings" ("user_id" uuid NOT NULL, "client" character varying(32) NOT NULL, "theme" text NOT NULL DEFAULT \'light\', "language" text NOT NULL DEFAULT \'en\', "sidebar_open" boolean NOT NULL DEFAULT true, "current_organization_id" integer, "current_project_id" integer, "onboarding" jsonb NOT NULL DEFAULT \'{}\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c1b781dc9d82155a86de568775" PRIMARY KEY ("user_id", "client"))',
    );
    await queryRunner.query(
      'CREATE INDEX "user_settings_current_organization_idx" ON "user_settings"  ("current_organization_id") WHERE current_organization_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "user_settings_current_project_idx" ON "user_settings"  ("current_project_id") WHERE current_project_id IS NOT NULL',
    );
    await queryRunner.query(
      'ALTER TABLE "pinned_project" ADD CONSTRAINT "FK_e824f4bbe97894ba9c6454059b0" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "pinned_project" ADD CONSTRAINT "FK_b4e59570fa5f80a8506f192618f" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_settings" ADD CONSTRAINT "FK_30a38338428010129a503c822e9" FOREIGN KEY ("current_organization_id") REFERENCES "organization"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_settings" ADD CONSTRAINT "FK_756c1accc57a342909e4bf0ffee" FOREIGN KEY ("current_project_id") REFERENCES "project"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "user_settings" DROP CONSTRAINT "FK_756c1accc57a342909e4bf0ffee"',
    );
    await queryRunner.query(
      'ALTER TABLE "user_settings" DROP CONSTRAINT "FK_30a38338428010129a503c822e9"',
    );
    await queryRunner.query(
      'ALTER TABLE "pinned_project" DROP CONSTRAINT "FK_b4e59570fa5f80a8506f192618f"',
    );
    await queryRunner.query(
      'ALTER TABLE "pinned_project" DROP CONSTRAINT "FK_e824f4bbe97894ba9c6454059b0"',
    );
    await queryRunner.query('DROP INDEX "public"."user_settings_current_project_idx"');
    await queryRunner.query('DROP INDEX "public"."user_settings_current_organization_idx"');
    await queryRunner.query('DROP TABLE "user_settings"');
    await queryRunner.query('DROP INDEX "public"."pinned_project_user_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."pinned_project_project_idx"');
    await queryRunner.query('DROP INDEX "public"."pinned_project_organization_idx"');
    await queryRunner.query('DROP TABLE "pinned_project"');
  }
}
