import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization permission version auth's membership read model has applied
 * (docs/architecture.md § Withdrawn permissions at once): `version` is the highest n such that
 * every change 1…n has been applied; `pending` holds versions applied out of order above it.
 * Written by `applyTenantVersion` of @wp/persistence.
 */
export class TenantPermissionVersion1796100000400 implements MigrationInterface {
  name = 'TenantPermissionVersion1796100000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tenant_permission_version" ("organization_id" integer PRIMARY KEY,
        "version" bigint NOT NULL DEFAULT 0, "pending" bigint[] NOT NULL DEFAULT '{}')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "tenant_permission_version"');
  }
}
