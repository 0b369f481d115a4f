import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators' changes to the platform's sign-in configuration, audited (docs/auth.md § Sign-in
 * with an OpenID provider, "Audit"): `operator_audit_log`, append-only, one row per change of an
 * OIDC connection (Admin-Access API or CLI). Additive only.
 */
export class OperatorAuditLog1796500000100 implements MigrationInterface {
  name = 'OperatorAuditLog1796500000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "operator_audit_log" ("id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "action" text NOT NULL, "actor_type" text NOT NULL, "actor_id" text, "target_type" text NOT NULL, "target_id" text NOT NULL, "target_label" text, "client_address" text, "request_id" text, "user_agent" text, "details" jsonb NOT NULL, CONSTRAINT "PK_40e9c3605cc35ca21d8a844e0f8" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "operator_audit_log_occurred_idx" ON "operator_audit_log"  ("occurred_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."operator_audit_log_occurred_idx"');
    await queryRunner.query('DROP TABLE "operator_audit_log"');
  }
}
