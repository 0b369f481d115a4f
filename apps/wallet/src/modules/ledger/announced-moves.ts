import type { PreparedStatement } from '@wp/persistence';

/**
 * The movement statements that also announce what they posted to org's webhooks
 * (docs/webhooks.md § Transaction events and the transfer path): the same ledger call
 * (`wallet_move`, `wallet_move_batch`) wrapped in one statement that inserts a
 * `wallet.transaction.posted` outbox row for each successful, non-replayed debit, transfer or
 * conversion one of whose wallets belongs to an organization whose endpoints take transaction
 * events (`webhook_hint`). Same statement, so the row commits iff the movement does, without a
 * transaction of several round trips; the hot balance row is still locked for one round trip.
 *
 * Sibling parts of a statement see the snapshot taken at its start, not what the ledger call
 * wrote, so the payload is built from the parameters and the call's result row; wallets and
 * hints already existed. Payload fields are those of `TransactionPosted` (`@wp/contracts`),
 * checked by org's consumer and by the wallet's e2e test. Each row answers `r_announced`, the
 * rows written (so the service wakes the outbox relay).
 */

/** One debit, transfer or conversion side: the tenants of its wallets that want the event. */
const tenantsOf = (from: string, to: string) => `(
  SELECT jsonb_agg(jsonb_build_object('organizationId', w.organization_id,
                                      'projectId', w.project_id)
                   ORDER BY (w.address_hash = ${from}) IS TRUE DESC)
    FROM wallet w
   WHERE w.address_hash IN (${from}, ${to})
     AND EXISTS (SELECT 1 FROM webhook_hint h
                  WHERE h.organization_id = w.organization_id AND h.transaction_events))`;

const INSTANT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** `wallet_move` with its 15 parameters as the function declares them, and `$16` the actor type. */
export const WALLET_MOVE_ANNOUNCED: PreparedStatement = {
  name: 'wallet_move_announced',
  text: `WITH m AS MATERIALIZED (
    SELECT * FROM wallet_move($1::text, $2::bpchar, $3::text, $4::numeric, $5::bpchar, $6::text,
      $7::text, $8::jsonb, $9::text, $10::text, $11::text, $12::text, $13::text, $14::boolean,
      $15::uuid)
  ), o AS (
    INSERT INTO outbox_message (id, subject, payload, occurred_at)
    SELECT gen_random_uuid(), 'wallet.transaction.posted', jsonb_build_object(
        'transactionId', m.r_entry_id, 'kind', $1::text,
        'fromWallet', $2::bpchar, 'toWallet', $5::bpchar,
        'amount', m.r_amount::text, 'asset', $3::text,
        'toAmount', m.r_to_amount::text, 'toAsset', $6::text,
        'description', coalesce($7::text, ''), 'referenceId', $9::text,
        'transferId', $15::uuid,
        'createdAt', to_char(m.r_created_at AT TIME ZONE 'UTC', ${INSTANT}),
        'actor', CASE WHEN $10::text IS NULL THEN NULL
                      ELSE jsonb_build_object('type', $16::text, 'id', $10::text) END,
        'tenants', t.tenants), now()
      FROM m, LATERAL ${tenantsOf('$2::bpchar', '$5::bpchar')} AS t(tenants)
     WHERE NOT m.r_replayed AND t.tenants IS NOT NULL
       AND $1::text IN ('debit', 'transfer', 'conversion')
    RETURNING 1
  )
  SELECT m.*, (SELECT count(*)::int FROM o) AS r_announced FROM m`,
};

/** `wallet_move_batch` over the same items; an item's `actor_type` names its actor's type. */
export const WALLET_MOVE_BATCH_ANNOUNCED: PreparedStatement = {
  name: 'wallet_move_batch_announced',
  text: `WITH m AS MATERIALIZED (SELECT * FROM wallet_move_batch($1::jsonb)),
  i AS (SELECT (e.n - 1)::int AS idx, e.item
          FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(item, n)),
  o AS (
    INSERT INTO outbox_message (id, subject, payload, occurred_at)
    SELECT gen_random_uuid(), 'wallet.transaction.posted', jsonb_build_object(
        'transactionId', m.r_entry_id, 'kind', i.item->>'type',
        'fromWallet', i.item->'from', 'toWallet', i.item->'to',
        'amount', m.r_amount::text, 'asset', i.item->>'from_asset',
        'toAmount', m.r_to_amount::text, 'toAsset', i.item->>'to_asset',
        'description', coalesce(i.item->>'description', ''),
        'referenceId', i.item->'reference_id', 'transferId', i.item->'transfer_request_id',
        'createdAt', to_char(m.r_created_at AT TIME ZONE 'UTC', ${INSTANT}),
        'actor', CASE WHEN i.item->>'initiated_by' IS NULL THEN NULL
                      ELSE jsonb_build_object('type', coalesce(i.item->>'actor_type', 'user'),
                                              'id', i.item->>'initiated_by') END,
        'tenants', t.tenants), now()
      FROM m JOIN i ON i.idx = m.r_index,
           LATERAL ${tenantsOf("(i.item->>'from')::bpchar", "(i.item->>'to')::bpchar")} AS t(tenants)
     WHERE m.r_sqlstate IS NULL AND NOT m.r_replayed AND t.tenants IS NOT NULL
       AND i.item->>'type' IN ('debit', 'transfer', 'conversion')
    RETURNING 1
  )
  SELECT m.*, (SELECT count(*)::int FROM o) AS r_announced FROM m`,
};
