import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organization single sign-on (docs/auth.md § Organization single sign-on): a connection may
 * belong to one organization (`oidc_connection.organization_id`, unique: at most one per
 * organization; NULLs, the platform's connections, are distinct),
 * and auth's copy of each organization's verified e-mail domains and `ssoRequired`, replicated
 * from `org.organization_sso.changed` (`sso_domain`, one row per verified domain;
 * `sso_organization`, the last applied version). Additive only.
 */
export class OrganizationSso1796600000000 implements MigrationInterface {
  name = 'OrganizationSso1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "oidc_connection" ADD "organization_id" integer');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "oidc_connection_organization_key" ON "oidc_connection" ("organization_id") ',
    );
    await queryRunner.query(
      `CREATE TABLE "sso_organization" ("organization_id" integer PRIMARY KEY,
        "sso_required" boolean NOT NULL, "version" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "sso_domain" ("domain" text PRIMARY KEY,
        "organization_id" integer NOT NULL REFERENCES "sso_organization" ("organization_id")
          ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      'CREATE INDEX "sso_domain_organization_idx" ON "sso_domain" ("organization_id")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "sso_domain"');
    await queryRunner.query('DROP TABLE "sso_organization"');
    await queryRunner.query('DROP INDEX "public"."oidc_connection_organization_key"');
    await queryRunner.query('ALTER TABLE "oidc_connection" DROP COLUMN "organization_id"');
  }
}
