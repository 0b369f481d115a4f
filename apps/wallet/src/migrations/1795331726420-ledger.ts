import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Ledger1795331726420 implements MigrationInterface {
  name = 'Ledger1795331726420';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "asset" ("code" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1f435756948298c61ecc3c6dab2" PRIMARY KEY ("code"))',
    );
    await queryRunner.query(
      'CREATE TABLE "conversion_rate" ("from_asset" text NOT NULL, "to_asset" text NOT NULL, "rate" numeric(38,18) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "conversion_rate_distinct_assets" CHECK ("from_asset" <> "to_asset"), CONSTRAINT "conversion_rate_positive" CHECK ("rate" > 0), CONSTRAINT "PK_f871be846751ba592834a05431a" PRIMARY KEY ("from_asset", "to_asset"))',
    );
    await queryRunner.query(
      'CREATE TABLE "directory_user" ("user_id" uuid NOT NULL, "email" text, "phone" text, "first_name" text NOT NULL DEFAULT \'\', "last_name" text NOT NULL DEFAULT \'\', "status" text NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5c3453bddc281900eb2f232c34e" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "balance" ("wallet_address" character(42) NOT NULL, "asset" text NOT NULL, "available" numeric(38,8) NOT NULL DEFAULT \'0\', "held" numeric(38,8) NOT NULL DEFAULT \'0\', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "balance_held_non_negative" CHECK ("held" >= 0), CONSTRAINT "balance_available_non_negative" CHECK ("available" >= 0), CONSTRAINT "PK_9026785c29071f25a3002738527" PRIMARY KEY ("wallet_address", "asset"))',
    );
    await queryRunner.query(
      'CREATE TABLE "journal_entry" ("id" uuid NOT NULL, "type" text NOT NULL, "from_wallet" character(42), "to_wallet" character(42), "from_asset" text NOT NULL, "to_asset" text NOT NULL, "amount" numeric(38,8) NOT NULL, "to_amount" numeric(38,8) NOT NULL, "rate" numeric(38,18), "description" text NOT NULL DEFAULT \'\', "metadata" jsonb NOT NULL DEFAULT \'{}\', "reference_id" text, "idempotency_scope" text, "idempotency_key" text, "request_fingerprint" text, "initiated_by" text, "transfer_request_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "journal_entry_amounts_positive" CHECK ("amount" > 0 AND "to_amount" > 0), CONSTRAINT "journal_entry_type_check" CHECK ("type" IN (\'transfer\', \'conversion\', \'debit\', \'credit\', \'transfer_request\')), CONSTRAINT "PK_69167f660c807d2aa178f0bd7e6" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "journal_entry_transfer_request_key" ON "journal_entry"  ("transfer_request_id") WHERE transfer_request_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "journal_entry_idempotency_key" ON "journal_entry"  ("idempotency_scope", "idempotency_key") WHERE idempotency_key IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "posting" ("id" BIGSERIAL NOT NULL, "entry_id" uuid NOT NULL, "wallet_address" character(42) NOT NULL, "asset" text NOT NULL, "amount" numeric(38,8) NOT NULL, "balance_after" numeric(38,8), "counterparty_address" character(42), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "posting_amount_non_zero" CHECK ("amount" <> 0), CONSTRAINT "PK_b535363e80b08416dacf34303a9" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "posting_entry_idx" ON "posting"  ("entry_id") ');
    await queryRunner.query(
      'CREATE INDEX "posting_wallet_history_idx" ON "posting"  ("wallet_address", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "project_member" ("project_id" integer NOT NULL, "user_id" uuid NOT NULL, "organization_id" integer NOT NULL, "role" text, "access_denied" boolean NOT NULL DEFAULT false, "version" bigint NOT NULL, CONSTRAINT "PK_0d739aa2794632a5a09276afb7a" PRIMARY KEY ("project_id", "user_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "project_member_user_idx" ON "project_member"  ("user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "project" ("project_id" integer NOT NULL, "organization_id" integer NOT NULL, "name" text NOT NULL, "deleted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_1a480c5734c5aacb9cef7b1499d" PRIMARY KEY ("project_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_idx" ON "project"  ("organization_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "agent" ("pass_id" uuid NOT NULL, "organization_id" integer NOT NULL, "project_id" integer NOT NULL, "title" text NOT NULL, "deleted" boolean NOT NULL DEFAULT false, "version" bigint NOT NULL, CONSTRAINT "PK_d641191ae3c09cb9345111f9e70" PRIMARY KEY ("pass_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "transfer_request" ("id" uuid NOT NULL, "from_wallet" character(42) NOT NULL, "to_wallet" character(42) NOT NULL, "asset" text NOT NULL, "amount" numeric(38,8) NOT NULL, "description" text NOT NULL DEFAULT \'\', "status" text NOT NULL, "failure_reason" text, "initiated_by" uuid NOT NULL, "code_hmac" text, "code_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT \'0\', "journal_entry_id" uuid, "decided_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "transfer_request_distinct_wallets" CHECK ("from_wallet" <> "to_wallet"), CONSTRAINT "transfer_request_amount_positive" CHECK ("amount" > 0), CONSTRAINT "transfer_request_status_check" CHECK ("status" IN (\'pending_sender_verification\', \'pending_recipient_acceptance\', \'completed\', \'rejected\', \'expired\')), CONSTRAINT "PK_de9b8501ed3bf28cd7dbdcb1d60" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "transfer_request_open_idx" ON "transfer_request"  ("code_expires_at") WHERE status IN (\'pending_sender_verification\', \'pending_recipient_acceptance\')',
    );
    await queryRunner.query(
      'CREATE INDEX "transfer_request_initiator_idx" ON "transfer_request"  ("initiated_by", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "transfer_request_to_idx" ON "transfer_request"  ("to_wallet", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "transfer_request_from_idx" ON "transfer_request"  ("from_wallet", "created_at") ',
    );
    await queryRunner.query('ALTER TABLE "wallet" ADD "organization_id" integer');
    await queryRunner.query('ALTER TABLE "wallet" ADD "project_id" integer');
    await queryRunner.query('ALTER TABLE "wallet" ADD "closed_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('CREATE INDEX "wallet_project_idx" ON "wallet"  ("project_id") ');
    await queryRunner.query(
      'CREATE INDEX "wallet_organization_idx" ON "wallet"  ("organization_id") ',
    );
    await queryRunner.query(
      "ALTER TABLE \"wallet\" ADD CONSTRAINT \"wallet_entity_type_check\" CHECK (\"entity_type\" IN ('user', 'organization', 'project', 'agent'))",
    );
    await queryRunner.query(
      'ALTER TABLE "conversion_rate" ADD CONSTRAINT "conversion_rate_from_asset_fk" FOREIGN KEY ("from_asset") REFERENCES "asset"("code") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversion_rate" ADD CONSTRAINT "conversion_rate_to_asset_fk" FOREIGN KEY ("to_asset") REFERENCES "asset"("code") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "balance" ADD CONSTRAINT "balance_wallet_fk" FOREIGN KEY ("wallet_address") REFERENCES "wallet"("address_hash") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "balance" ADD CONSTRAINT "balance_asset_fk" FOREIGN KEY ("asset") REFERENCES "asset"("code") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "posting" ADD CONSTRAINT "posting_entry_fk" FOREIGN KEY ("entry_id") REFERENCES "journal_entry"("id") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "transfer_request" ADD CONSTRAINT "transfer_request_from_wallet_fk" FOREIGN KEY ("from_wallet") REFERENCES "wallet"("address_hash") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "transfer_request" ADD CONSTRAINT "transfer_request_to_wallet_fk" FOREIGN KEY ("to_wallet") REFERENCES "wallet"("address_hash") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "transfer_request" ADD CONSTRAINT "transfer_request_asset_fk" FOREIGN KEY ("asset") REFERENCES "asset"("code") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "transfer_request" DROP CONSTRAINT "transfer_request_asset_fk"',
    );
    await queryRunner.query(
      'ALTER TABLE "transfer_request" DROP CONSTRAINT "transfer_request_to_wallet_fk"',
    );
    await queryRunner.query(
      'ALTER TABLE "transfer_request" DROP CONSTRAINT "transfer_request_from_wallet_fk"',
    );
    await queryRunner.query('ALTER TABLE "posting" DROP CONSTRAINT "posting_entry_fk"');
    await queryRunner.query('ALTER TABLE "balance" DROP CONSTRAINT "balance_asset_fk"');
    await queryRunner.query('ALTER TABLE "balance" DROP CONSTRAINT "balance_wallet_fk"');
    await queryRunner.query(
      'ALTER TABLE "conversion_rate" DROP CONSTRAINT "conversion_rate_to_asset_fk"',
    );
    await queryRunner.query(
      'ALTER TABLE "conversion_rate" DROP CONSTRAINT "conversion_rate_from_asset_fk"',
    );
    await queryRunner.query('ALTER TABLE "wallet" DROP CONSTRAINT "wallet_entity_type_check"');
    await queryRunner.query('DROP INDEX "public"."wallet_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."wallet_project_idx"');
    await queryRunner.query('ALTER TABLE "wallet" DROP COLUMN "closed_at"');
    await queryRunner.query('ALTER TABLE "wallet" DROP COLUMN "project_id"');
    await queryRunner.query('ALTER TABLE "wallet" DROP COLUMN "organization_id"');
    await queryRunner.query('DROP INDEX "public"."transfer_request_from_idx"');
    await queryRunner.query('DROP INDEX "public"."transfer_request_to_idx"');
    await queryRunner.query('DROP INDEX "public"."transfer_request_initiator_idx"');
    await queryRunner.query('DROP INDEX "public"."transfer_request_open_idx"');
    await queryRunner.query('DROP TABLE "transfer_request"');
    await queryRunner.query('DROP TABLE "agent"');
    await queryRunner.query('DROP INDEX "public"."project_organization_idx"');
    await queryRunner.query('DROP TABLE "project"');
    await queryRunner.query('DROP INDEX "public"."project_member_user_idx"');
    await queryRunner.query('DROP TABLE "project_member"');
    await queryRunner.query('DROP INDEX "public"."posting_wallet_history_idx"');
    await queryRunner.query('DROP INDEX "public"."posting_entry_idx"');
    await queryRunner.query('DROP TABLE "posting"');
    await queryRunner.query('DROP INDEX "public"."journal_entry_idempotency_key"');
    await queryRunner.query('DROP INDEX "public"."journal_entry_transfer_request_key"');
    await queryRunner.query('DROP TABLE "journal_entry"');
    await queryRunner.query('DROP TABLE "balance"');
    await queryRunner.query('DROP TABLE "directory_user"');
    await queryRunner.query('DROP TABLE "conversion_rate"');
    await queryRunner.query('DROP TABLE "asset"');
  }
}
