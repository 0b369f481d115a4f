// Opens the wallet-transfers bench's personal wallets through auth.user.activated events and
// funds them.
import { randomUUID } from 'node:crypto';
import { signAccessToken, type TestEnvironment } from '@wp/testing';
import { connect, headers as natsHeaders, JSONCodec } from 'nats';
import type { Pool as PgPool } from 'pg';
import type { Pool } from 'undici';

export interface BenchUser {
  id: string;
  wallet: string;
  token: string;
}

/** Personal wallets the way they are really opened: `auth.user.activated` on JetStream. */
export async function openWallets(
  env: TestEnvironment,
  db: PgPool,
  count: number,
): Promise<BenchUser[]> {
  const nc = await connect({ servers: env.env['NATS_URL'] });
  const codec = JSONCodec();
  const js = nc.jetstream();
  const ids = Array.from({ length: count }, () => randomUUID());
  await Promise.all(
    ids.map((userId) => {
      const id = randomUUID();
      const h = natsHeaders();
      h.set('Nats-Msg-Id', id);
      const payload = {
        userId,
        email: `${userId.slice(0, 8)}@bench.example`,
        phone: null,
        firstName: 'Bench',
        lastName: 'User',
        status: 'active',
      };
      return js.publish(
        `${env.id}.auth.user.activated`,
        codec.encode({
          id,
          subject: 'auth.user.activated',
          occurredAt: new Date().toISOString(),
          payload,
        }),
        { msgID: id, headers: h },
      );
    }),
  );
  await nc.close();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM wallet`);
    if (rows[0].n >= count) break;
    if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${count} wallets opened`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const { rows } = await db.query<{ entity_id: string; address_hash: string }>(
    `SELECT entity_id, address_hash FROM wallet WHERE entity_type = 'user'`,
  );
  const byUser = new Map(rows.map((r) => [r.entity_id, r.address_hash]));
  // The longest lifetime the services accept (ACCESS_TOKEN_MAX_LIFETIME_SECONDS).
  return Promise.all(
    ids.map(async (id) => ({
      id,
      wallet: byUser.get(id)!,
      token: await signAccessToken(env.keys.jwtPrivateKey, id, {}, 3600),
    })),
  );
}

/** Credits every wallet through the gateway with `Admin-Access` (and warms every token). */
export async function fund(http: Pool, env: TestEnvironment, wallets: BenchUser[]): Promise<void> {
  const queue = [...wallets];
  const worker = async () => {
    for (let user = queue.pop(); user; user = queue.pop()) {
      const res = await http.request({
        method: 'POST',
        path: `/v1/api/wallets/${user.wallet}/credits`,
        headers: {
          'api-key': env.keys.apiKey,
          authorization: `Bearer ${user.token}`,
          'admin-access': env.keys.adminAccessToken,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ credit: { amount: 1_000_000_000, description: 'bench funding' } }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`funding failed: ${res.statusCode} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
