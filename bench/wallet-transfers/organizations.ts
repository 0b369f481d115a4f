// Organization wallets for the wallet-transfers bench: each bench user becomes the ADMIN of an
// organization of its own, announced the way org does it, with its permission version required.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisTenantVersionStore } from '@wp/security';
import type { TestEnvironment } from '@wp/testing';
import { connect, headers as natsHeaders, JSONCodec } from 'nats';
import type { Pool as PgPool } from 'pg';
import type { BenchUser } from './users.js';

/**
 * Opens one organization per user through org's events on JetStream — `org.organization.created`
 * (wallet opens the `operating` wallet) and `org.membership.changed` (the user is its ADMIN, at
 * organization permission version 1) — and raises each organization's required version to 1 in
 * Redis, as org does before answering. Transfers out of these wallets then take the permission
 * freshness check of docs/architecture.md § Withdrawn permissions at once (one Redis `GET`, the
 * applied version read with the roles), which personal wallets skip.
 * With `webhookHints`, each organization also announces an endpoint taking transaction events
 * (`org.webhook_subscriptions.changed`), so its transfers run the announcing ledger statement
 * and write `wallet.transaction.posted` (docs/webhooks.md § Transaction events and the transfer
 * path): the cost of transaction webhooks when every organization wants them.
 * @returns per user, the user with its organization's wallet (`wallet`) and its token
 */
export async function openOrganizationWallets(
  env: TestEnvironment,
  db: PgPool,
  users: BenchUser[],
  webhookHints = false,
): Promise<BenchUser[]> {
  const nc = await connect({ servers: env.env['NATS_URL'] });
  const codec = JSONCodec();
  const js = nc.jetstream();
  const publish = (subject: string, payload: unknown) => {
    const id = randomUUID();
    const h = natsHeaders();
    h.set('Nats-Msg-Id', id);
    const event = { id, subject, occurredAt: new Date().toISOString(), payload };
    return js.publish(`${env.id}.${subject}`, codec.encode(event), { msgID: id, headers: h });
  };
  const organizationOf = (index: number) => 1_000_000 + index;
  await Promise.all(
    users.map((user, index) =>
      publish('org.organization.created', {
        organizationId: organizationOf(index),
        name: `Bench organization ${index}`,
        createdBy: user.id,
        createdAt: new Date().toISOString(),
      }),
    ),
  );
  await Promise.all(
    users.map((user, index) =>
      publish('org.membership.changed', {
        organizationId: organizationOf(index),
        projectId: null,
        userId: user.id,
        role: 'ADMIN',
        accessDenied: false,
        version: 1,
        organizationVersion: 1,
      }),
    ),
  );
  if (webhookHints) {
    await Promise.all(
      users.map((_, index) =>
        publish('org.webhook_subscriptions.changed', {
          organizationId: organizationOf(index),
          transactionEvents: true,
          version: 1,
        }),
      ),
    );
  }
  await nc.close();
  const redis = new Redis(env.env['REDIS_URL'], { keyPrefix: env.env['REDIS_KEY_PREFIX'] });
  const required = new RedisTenantVersionStore(redis);
  await Promise.all(users.map((_, index) => required.raise(String(organizationOf(index)), 1)));
  redis.disconnect();

  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await db.query<{ wallets: number; applied: number; hints: number }>(
      `SELECT (SELECT count(*)::int FROM wallet WHERE entity_type = 'organization') AS wallets,
              (SELECT count(*)::int FROM tenant_permission_version WHERE version >= 1) AS applied,
              (SELECT count(*)::int FROM webhook_hint) AS hints`,
    );
    const hinted = !webhookHints || rows[0].hints >= users.length;
    if (rows[0].wallets >= users.length && rows[0].applied >= users.length && hinted) break;
    if (Date.now() > deadline)
      throw new Error(`organizations not ready: ${JSON.stringify(rows[0])}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const { rows } = await db.query<{ entity_id: string; address_hash: string }>(
    `SELECT entity_id, address_hash FROM wallet WHERE entity_type = 'organization'`,
  );
  const byOrganization = new Map(rows.map((r) => [Number(r.entity_id), r.address_hash]));
  return users.map((user, index) => ({
    ...user,
    wallet: byOrganization.get(organizationOf(index))!,
  }));
}
