import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /oauth/operator_audit_log` pages newest first by `(occurred_at, id)` (docs/auth.md
 * § Operator audit log): the index covers that order, replacing the one on `occurred_at` alone.
 */
export class OperatorAuditKeyset1796550000000 implements MigrationInterface {
  name = 'OperatorAuditKeyset1796550000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "operator_audit_log_keyset_idx" ON "operator_audit_log"  ("occurred_at", "id") ',
    );
    await queryRunner.query('DROP INDEX "public"."operator_audit_log_occurred_idx"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "operator_audit_log_occurred_idx" ON "operator_audit_log"  ("occurred_at") ',
    );
    await queryRunner.query('DROP INDEX "public"."operator_audit_log_keyset_idx"');
  }
}
