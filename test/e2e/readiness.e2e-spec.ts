import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateNats } from '../support/nats-outage.js';
import { PlatformStack, type ServiceName } from '../support/stack.js';

const embedded = testPlatformMode() === 'embedded';
const SERVICES: ServiceName[] = ['auth', 'org', 'wallet', 'analytics'];

async function ready(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, body: await res.json() };
}

function serviceUrl(stack: PlatformStack, name: ServiceName): string {
  return `http://127.0.0.1:${stack.ports.get(name)}`;
}

/**
 * Readiness is about a process's own required dependencies (docs/operations.md § Readiness):
 * NATS down only degrades the services (the outbox keeps events), and the gateway never
 * depends on the services behind it.
 */
describeIf(
  !embedded,
  SERVICES_ONLY,
  'NATS outage',
)('readiness while NATS is down', () => {
  const platform = usePlatformOnPrivateNats();

  it('keeps every app ready, says degraded with nats, and exports the gauge', async () => {
    await platform.nats.kill();
    for (const name of SERVICES) {
      const res = await ready(serviceUrl(platform.stack, name));
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(res.body.status).toBe('degraded');
      expect(res.body.error.nats).toMatchObject({ status: 'down', impact: 'degraded' });
      expect(res.body.info.database).toMatchObject({ status: 'up', impact: 'required' });
    }
    const gateway = await ready(platform.stack.gatewayUrl);
    expect(gateway.status).toBe(200);
    expect(gateway.body.status).toBe('ok');

    const metrics = await (await fetch(`${platform.stack.metricsUrl('wallet')}/metrics`)).text();
    expect(metrics).toMatch(/health_dependency_up\{dependency="nats",impact="degraded"[^}]*\} 0/);
    expect(metrics).toMatch(
      /health_dependency_up\{dependency="database",impact="required"[^}]*\} 1/,
    );

    await platform.nats.resume();
    await waitFor(
      async () => (await ready(serviceUrl(platform.stack, 'org'))).body.status === 'ok',
      {
        timeoutMs: 20_000,
        what: 'org back to ok after NATS restarts',
      },
    );
  });
});

describe('gateway readiness with a service down', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('stays ready and answers that service routes with 503', async () => {
    await stack.stopService('org');
    const gateway = await ready(stack.gatewayUrl);
    expect(gateway.status).toBe(200);
    expect(Object.keys(gateway.body.details).some((name) => name.startsWith('upstream'))).toBe(
      false,
    );
    const routed = await stack.request('GET', '/v1/api/organizations');
    expect(routed.status).toBe(503);
    expect(routed.headers.get('retry-after')).toBe('1');
    const auth = await stack.request('GET', '/v1/api/oauth/jwks.json');
    expect(auth.status).toBe(200);
  });
});
