import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Projects1795333906939 implements MigrationInterface {
  name = 'Projects1795333906939';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "project_api_key" ("id" uuid NOT NULL, "project_id" integer NOT NULL, "organization_id" integer NOT NULL, "note" text NOT NULL, "public_key" text NOT NULL, "encrypted_secret_key" text NOT NULL, "secret_key_version" integer NOT NULL, "secret_key_sha256" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_41113ff35c62c3cb7e49c8de824" UNIQUE ("public_key"), CONSTRAINT "PK_064530fb26674e71ee1df902eed" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "project_api_key_organization_idx" ON "project_api_key"  ("organization_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_api_key_project_idx" ON "project_api_key"  ("project_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "llm_api_key" ("id" uuid NOT NULL, "project_id" integer NOT NULL, "organization_id" integer NOT NULL, "provider" text NOT NULL, "encrypted_secret_key" text NOT NULL, "secret_key_version" integer NOT NULL, "masked_secret_key" text NOT NULL, "custom_models" jsonb NOT NULL, "with_default_models" boolean NOT NULL DEFAULT true, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5525d9e3bafac19f63c00d33298" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "llm_api_key_organization_idx" ON "llm_api_key"  ("organization_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "llm_api_key_project_idx" ON "llm_api_key"  ("project_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "project_membership" ("project_id" integer NOT NULL, "user_id" uuid NOT NULL, "organization_id" integer NOT NULL, "role" text NOT NULL, "access_denied" boolean NOT NULL DEFAULT false, "version" bigint NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9366a3b00e301e49b3a14530d5c" PRIMARY KEY ("project_id", "user_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "project_membership_organization_user_idx" ON "project_membership"  ("organization_id", "user_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_membership_user_idx" ON "project_membership"  ("user_id") ',
    );
    await queryRunner.query('ALTER TABLE "project" ADD "created_by" uuid');
    await queryRunner.query(
      'ALTER TABLE "project" ADD "members_count" integer NOT NULL DEFAULT \'0\'',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD "tools_count" integer NOT NULL DEFAULT \'0\'',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD "notebooks_count" integer NOT NULL DEFAULT \'0\'',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD "has_wallet" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD "keys_version" bigint NOT NULL DEFAULT \'0\'',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_notebooks_idx" ON "project"  ("organization_id", "notebooks_count") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_tools_idx" ON "project"  ("organization_id", "tools_count") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_members_idx" ON "project"  ("organization_id", "members_count") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_activity_idx" ON "project"  ("organization_id", "last_activity_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_updated_idx" ON "project"  ("organization_id", "updated_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_created_idx" ON "project"  ("organization_id", "created_at") ',
    );
    await queryRunner.query(
      'ALTER TABLE "project" ADD CONSTRAINT "FK_e4616ee32e66481cf9b9f1a6466" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "project_api_key" ADD CONSTRAINT "FK_4c314fa480b49ab63c707808661" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "llm_api_key" ADD CONSTRAINT "FK_bc3fce5fbdec5febe6fcb9bce4e" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "project_membership" ADD CONSTRAINT "FK_1e77d1ede201b6bb9549c2c97c3" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // Written by hand (TypeORM cannot declare expression or GIN indexes; the entity lists them
    // with `synchronize: false`): the name sort of GET …/projects and its substring search.
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(
      'CREATE INDEX "project_organization_lower_name_idx" ON "project" ("organization_id", (lower("name") COLLATE "C"), "id")',
    );
    await queryRunner.query(
      'CREATE INDEX "project_name_trgm_idx" ON "project" USING gin ("name" gin_trgm_ops)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."project_name_trgm_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_lower_name_idx"');
    await queryRunner.query(
      'ALTER TABLE "project_membership" DROP CONSTRAINT "FK_1e77d1ede201b6bb9549c2c97c3"',
    );
    await queryRunner.query(
      'ALTER TABLE "llm_api_key" DROP CONSTRAINT "FK_bc3fce5fbdec5febe6fcb9bce4e"',
    );
    await queryRunner.query(
      'ALTER TABLE "project_api_key" DROP CONSTRAINT "FK_4c314fa480b49ab63c707808661"',
    );
    await queryRunner.query(
      'ALTER TABLE "project" DROP CONSTRAINT "FK_e4616ee32e66481cf9b9f1a6466"',
    );
    await queryRunner.query('DROP INDEX "public"."project_organization_created_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_updated_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_activity_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_members_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_tools_idx"');
    await queryRunner.query('DROP INDEX "public"."project_organization_notebooks_idx"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "keys_version"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "last_activity_at"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "has_wallet"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "notebooks_count"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "tools_count"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "members_count"');
    await queryRunner.query('ALTER TABLE "project" DROP COLUMN "created_by"');
    await queryRunner.query('DROP INDEX "public"."project_membership_user_idx"');
    await queryRunner.query('DROP INDEX "public"."project_membership_organization_user_idx"');
    await queryRunner.query('DROP TABLE "project_membership"');
    await queryRunner.query('DROP INDEX "public"."llm_api_key_project_idx"');
    await queryRunner.query('DROP INDEX "public"."llm_api_key_organization_idx"');
    await queryRunner.query('DROP TABLE "llm_api_key"');
    await queryRunner.query('DROP INDEX "public"."project_api_key_project_idx"');
    await queryRunner.query('DROP INDEX "public"."project_api_key_organization_idx"');
    await queryRunner.query('DROP TABLE "project_api_key"');
  }
}
