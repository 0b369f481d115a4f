import { performance } from 'node:perf_hooks';
import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateRedis, type PlatformOnPrivateRedis } from '../support/redis-outage.js';
import {
  accepted,
  revokeEveryWay,
  unusedApiKey,
  type RevokedCredentials,
} from '../support/revoked-credentials.js';

const embedded = testPlatformMode() === 'embedded';
/** How long every revoked credential is tried after the fault, ms. */
const PROBE_MS = 3000;

/**
 * Redis is a cache (docs/architecture.md § Redis is a cache): PostgreSQL holds the revocations,
 * the Api-Key registry and the permission versions. A Redis that comes back empty — restarted
 * without persistence, or flushed — is rebuilt by auth and org, and until then nothing it cannot
 * vouch for is let through. With NATS killed before the revocations no read model learns of
 * them by event: only the deny-list and the permission versions refuse them. Services mode only
 * (a private Redis and NATS); embedded mode keeps all of it in the platform database.
 */
describeIf(
  !embedded,
  SERVICES_ONLY,
  'embedded mode has no Redis: its deny-list lives in the platform database',
)('revoked credentials when Redis comes back empty', () => {
  const platform = usePlatformOnPrivateRedis({ nats: true, env: { REFRESH_GRACE_SECONDS: '0' } });
  let world: RevokedCredentials;

  beforeAll(async () => {
    world = await revokeEveryWay(platform.stack, () => platform.nats!.kill());
  });

  /**
   * Sends every probe over and over for `ms`, and for 2 s more after `keyBack` resolves (the
   * registry rebuilt: the probes' own Api-Key is checked again, so the tokens are): what was
   * accepted, and how many were sent.
   */
  async function probeFor(
    ms: number,
    keyBack: Promise<unknown>,
  ): Promise<{ accepted: string[]; sent: number }> {
    const tally = { accepted: [] as string[], sent: 0 };
    let deadline = performance.now() + ms;
    void keyBack.then(
      () => (deadline = Math.max(deadline, performance.now() + 2000)),
      () => undefined,
    );
    while (performance.now() < deadline) {
      for (const probe of world.probes) {
        const { status } = await probe.send();
        tally.sent++;
        if (accepted(status)) tally.accepted.push(`${probe.what}: ${status}`);
      }
    }
    return tally;
  }

  /**
   * Polls a request that needs only the Api-Key until the key is accepted (the bearer guard's
   * 401 `TOKEN_MISSING`): ms since `since`. A 403 (key taken for unknown) fails at once.
   */
  async function keyAccepted(key: string, since: number): Promise<number> {
    for (;;) {
      const res = await platform.stack.request('GET', '/v1/api/oauth/token/info', {
        headers: { 'api-key': key },
      });
      expect(res.status).not.toBe(403);
      if (res.status === 401) return performance.now() - since;
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '1']);
      if (performance.now() - since > 10_000) throw new Error('the Api-Key was never accepted');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it.each([
    [
      'restarted empty',
      async (p: PlatformOnPrivateRedis) => {
        await p.redis.kill();
        await p.redis.resume();
      },
    ],
    ['flushed (FLUSHALL)', (p: PlatformOnPrivateRedis) => p.redis.flushAll()],
  ])(
    'Redis %s: no revoked credential is accepted anywhere, a new Api-Key works within a second',
    async (_fault, fault) => {
      const key = await unusedApiKey(platform.stack);
      await fault(platform);
      const since = performance.now();
      const keyBack = keyAccepted(key, since);
      const [keyMs, tally] = await Promise.all([keyBack, probeFor(PROBE_MS, keyBack)]);
      expect(tally.accepted).toEqual([]);
      expect(tally.sent).toBeGreaterThan(world.probes.length);
      expect(keyMs).toBeLessThan(1000);

      // Rebuilt from PostgreSQL: refused by name again, and a token never revoked works.
      for (const probe of world.probes.filter((p) => p.what.includes('token'))) {
        const res = await probe.send();
        expect([probe.what, res.status, res.body.errors?.[0]?.code]).toEqual([
          probe.what,
          401,
          'TOKEN_REVOKED',
        ]);
      }
      await waitFor(
        async () =>
          (
            await platform.stack.request('GET', '/v1/api/organizations', {
              token: world.valid.token,
            })
          ).status === 200,
        { timeoutMs: 5000, what: 'a token never revoked accepted again' },
      );
    },
  );
});
