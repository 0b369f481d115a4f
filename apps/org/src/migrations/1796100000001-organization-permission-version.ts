import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The permission version of each organization (docs/architecture.md § Withdrawn permissions at
 * once): one more with every membership change, carried by `org.membership.changed`.
 */
export class OrganizationPermissionVersion1796100000001 implements MigrationInterface {
  name = 'OrganizationPermissionVersion1796100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organization_permission_version" ("organization_id" integer PRIMARY KEY,
        "version" bigint NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "organization_permission_version"');
  }
}
