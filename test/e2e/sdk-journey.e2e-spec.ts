import {
  AnalyticsClient,
  PlatformApiError,
  WorkspacePlatformClient,
} from '@workspace-platform/client';
import { SmtpSink, waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * The SDK (libs/client, docs/api-documentation.md) against the running platform through the
 * gateway, the whole user journey: register → activate → login → organization → project →
 * key pair → wallet → transfer request → settings → logout, and the refresh rule for real.
 */
describe('@workspace-platform/client: the user journey against the platform', () => {
  let smtp: SmtpSink;
  let stack: PlatformStack;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    stack = await PlatformStack.start({
      AUTH_EMAIL_ACTIVATION_REQUIRED: 'true',
      SMTP_URL: smtp.url,
    });
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  it('register → activate → login → organization → project → key pair → wallet → transfer request → settings → logout', async () => {
    const paths: string[] = [];
    const sdk = new WorkspacePlatformClient({
      baseUrl: stack.gatewayUrl,
      apiKey: stack.apiKey,
      fetch: (request) => {
        paths.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    });
    const email = `sdk-${Date.now()}@example.com`;
    const password = 'correct horse battery';

    const registered = await sdk.register(email, password);
    expect(registered.status).toBe(201);
    expect(sdk.isSignedIn).toBe(false);
    const mail = await smtp.nextMail(email, { timeoutMs: 20_000 });
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
    const userId = (registered.body as { user_id: string }).user_id;
    await sdk.activate(userId, code ?? '');
    expect(sdk.isSignedIn).toBe(true);

    await sdk.logout();
    expect(sdk.isSignedIn).toBe(false);
    await sdk.login(email, password);
    expect(sdk.isSignedIn).toBe(true);

    const created = await sdk.createOrganization('SDK Journey Inc');
    const organizationId = Number((created as { data: { id: string } }).data.id);
    const organization = await sdk.getOrganization(organizationId);
    expect(organization.data.id).toBe(String(organizationId));
    const reads = paths.length;
    await sdk.getOrganization(organizationId);
    expect(paths.length).toBe(reads); // served from the 5-minute cache

    const project = await sdk.createProject(organizationId, 'Website');
    const projectId = Number((project as { data: { id: string } }).data.id);
    await sdk.updateProject(organizationId, projectId, 'Web site');
    const withSecrets = (await sdk.getProject(organizationId, projectId, true)) as unknown as {
      meta: { secrets: { publicKey: string; secretKey: string } };
    };
    const analytics = new AnalyticsClient(stack.gatewayUrl, withSecrets.meta.secrets, {
      apiKey: stack.apiKey,
    });
    const now = new Date();
    const metrics = () =>
      analytics.dailyMetrics({
        fromTimestamp: new Date(now.getTime() - 86_400_000).toISOString(),
        toTimestamp: now.toISOString(),
      });
    // A new project's pair reaches analytics with `org.project.keys.changed`
    // (docs/analytics.md § Authentication): 401 until then, normally milliseconds.
    await waitFor(
      () =>
        metrics().then(
          () => true,
          () => false,
        ),
      {
        timeoutMs: 10_000,
        what: "analytics accepting the new project's key pair",
      },
    );
    await expect(metrics()).resolves.toHaveProperty('data');

    const walletOf = async (type: string) =>
      waitFor(
        async () =>
          (
            (await sdk.listWallets()) as { data: { entity_type: string; address_hash: string }[] }
          ).data.find((w) => w.entity_type === type),
        { timeoutMs: 10_000, what: `the ${type} wallet` },
      );
    const mine = await walletOf('user');
    const orgWallet = await walletOf('organization');
    const credit = await sdk.api.POST('/v1/api/wallets/{addressHash}/credits', {
      params: { path: { addressHash: mine.address_hash } },
      headers: { 'Admin-Access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 50, description: 'seed' } } as never,
    });
    expect(credit.response.status).toBe(201);
    const before = await sdk.getWallet(mine.address_hash, { forceRefresh: true });
    expect(before.wallet.balance).toBe(50);
    const transfer = (await sdk.requestTransfer({
      from_wallet: mine.address_hash,
      to_wallet: orgWallet.address_hash,
      amount: 20,
      description: 'journey',
    })) as { transfer: { status: string } };
    expect(transfer.transfer.status).toBe('pending_sender_verification');

    await sdk.loadSettings();
    sdk.settings.update({ theme: 'dark', current_organization_id: String(organizationId) });
    expect(sdk.settings.values).toMatchObject({ theme: 'dark' });
    await sdk.settings.flush();
    const stored = await sdk.api.GET('/v1/api/user_settings');
    expect(stored.data).toMatchObject({ theme: 'dark', current_organization_id: organizationId });

    // A token the platform no longer accepts: one refresh, shared by concurrent requests.
    const tokens = sdk.session.tokens!;
    sdk.session.start({ ...tokens, accessToken: 'expired.access.token' });
    const refreshesBefore = paths.filter((p) => p.endsWith('/oauth/token/refresh')).length;
    await Promise.all([sdk.listWallets(), sdk.listWallets(), sdk.listWallets()]);
    expect(paths.filter((p) => p.endsWith('/oauth/token/refresh')).length).toBe(
      refreshesBefore + 1,
    );

    await sdk.logout();
    expect(sdk.isSignedIn).toBe(false);
    const after = await sdk.listWallets().catch((e: unknown) => e);
    expect(after).toBeInstanceOf(PlatformApiError);
    expect(after).toMatchObject({ status: 401 });
  });
});
