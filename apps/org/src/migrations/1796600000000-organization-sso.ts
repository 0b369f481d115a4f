import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization single sign-on (docs/org.md § Single sign-on for an organization): the e-mail
 * domains an organization claims (`organization_domain`; a domain is verified by at most one
 * organization, the partial unique index) and its settings (`organization_sso`). Additive only.
 */
export class OrganizationSso1796600000000 implements MigrationInterface {
  name = 'OrganizationSso1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organization_domain" ("id" uuid PRIMARY KEY,
        "organization_id" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
        "domain" text NOT NULL, "verification_token" text NOT NULL,
        "verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL)`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "organization_domain_org_domain_key" ON "organization_domain" ("organization_id", "domain")',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "organization_domain_verified_key" ON "organization_domain" ("domain") WHERE "verified_at" IS NOT NULL',
    );
    await queryRunner.query(
      `CREATE TABLE "organization_sso" ("organization_id" integer PRIMARY KEY
        REFERENCES "organization" ("id") ON DELETE CASCADE,
        "sso_required" boolean NOT NULL DEFAULT false,
        "default_role" text NOT NULL DEFAULT 'MEMBER', "version" bigint NOT NULL DEFAULT 0)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "organization_sso"');
    await queryRunner.query('DROP TABLE "organization_domain"');
  }
}
