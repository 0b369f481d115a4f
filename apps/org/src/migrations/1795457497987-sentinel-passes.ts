import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SentinelPasses1795457497987 implements MigrationInterface {
  name = 'SentinelPasses1795457497987';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "sentinel_pass" ("id" uuid NOT NULL, "organization_id" integer NOT NULL, "project_id" integer NOT NULL, "title" text NOT NULL, "description" text NOT NULL DEFAULT \'\', "entity_type" text NOT NULL DEFAULT \'project\', "credential_type" text NOT NULL DEFAULT \'api_key\', "permissions" text array NOT NULL DEFAULT \'{}\', "allowed_referers" text array NOT NULL DEFAULT \'{}\', "scopes" text array NOT NULL DEFAULT \'{}\', "tags" text array NOT NULL DEFAULT \'{}\', "expires_at" TIMESTAMP WITH TIME ZONE, "active" boolean NOT NULL DEFAULT true, "key_hash" text NOT NULL, "last_rotated" TIMESTAMP WITH TIME ZONE, "usage_count" bigint NOT NULL DEFAULT \'0\', "last_used_at" TIMESTAMP WITH TIME ZONE, "version" integer NOT NULL DEFAULT \'1\', "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_d8f02e3c7502845e507ee326bac" UNIQUE ("key_hash"), CONSTRAINT "PK_d3a81658b5b1ab5e859e6a4c0c9" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "sentinel_pass_organization_idx" ON "sentinel_pass"  ("organization_id", "project_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "sentinel_pass_project_idx" ON "sentinel_pass"  ("project_id", "created_at") ',
    );
    await queryRunner.query(
      'ALTER TABLE "sentinel_pass" ADD CONSTRAINT "FK_0bf4daba1698a089e7b18cdb899" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // Written by hand (TypeORM cannot declare GIN indexes; the entity lists it with
    // `synchronize: false`): the `tags` filter of the pass lists is `tags @> …`.
    await queryRunner.query(
      'CREATE INDEX "sentinel_pass_tags_gin_idx" ON "sentinel_pass" USING gin ("tags")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."sentinel_pass_tags_gin_idx"');
    await queryRunner.query(
      'ALTER TABLE "sentinel_pass" DROP CONSTRAINT "FK_0bf4daba1698a089e7b18cdb899"',
    );
    await queryRunner.query('DROP INDEX "public"."sentinel_pass_project_idx"');
    await queryRunner.query('DROP INDEX "public"."sentinel_pass_organization_idx"');
    await queryRunner.query('DROP TABLE "sentinel_pass"');
  }
}
