import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The required permission version per tenant (`TenantVersionStore`, docs/architecture.md
 * § Withdrawn permissions at once), embedded mode's counterpart of the Redis keys.
 */
export class TenantPermissionVersion1796100000000 implements MigrationInterface {
  name = 'TenantPermissionVersion1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tenant_permission_version" ("tenant_id" text PRIMARY KEY,
        "version" bigint NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "tenant_permission_version"');
  }
}
