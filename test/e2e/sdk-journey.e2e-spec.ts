import {
  AnalyticsClient,
  PlatformApiError,
  WorkspacePlatformClient,
  isPlatformApiError,
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
    if (registered.status !== 201) throw new Error(`expected 201, got ${registered.status}`);
    expect(sdk.isSignedIn).toBe(false);
    const mail = await smtp.nextMail(email, { timeoutMs: 20_000 });
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
    await sdk.activate(registered.body.user_id, code ?? '');
    expect(sdk.isSignedIn).toBe(true);

    await sdk.logout();
    expect(sdk.isSignedIn).toBe(false);
    await sdk.login(email, password);
    expect(sdk.isSignedIn).toBe(true);

    const created = await sdk.createOrganization('SDK Journey Inc');
    const organizationId = Number(created.data.id);
    const organization = await sdk.getOrganization(organizationId);
    expect(organization.data.id).toBe(String(organizationId));
    const reads = paths.length;
    await sdk.getOrganization(organizationId);
    expect(paths.length).toBe(reads); // served from the 5-minute cache

    const project = await sdk.createProject(organizationId, 'Website');
    const projectId = Number(project.data.id);
    await sdk.updateProject(organizationId, projectId, 'Web site');
    const withSecrets = await sdk.getProject(organizationId, projectId, true);
    const listed = await sdk.projects(organizationId, { search: 'Web' }).toArray();
    expect(listed.map((p) => p.attributes.name)).toEqual(['Web site']);
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
      waitFor(async () => (await sdk.listWallets()).data.find((w) => w.entity_type === type), {
        timeoutMs: 10_000,
        what: `the ${type} wallet`,
      });
    const mine = await walletOf('user');
    const orgWallet = await walletOf('organization');
    const adminAccess = stack.env.keys.adminAccessToken;
    const seeded = await sdk.credit(
      mine.address_hash,
      { amount: 50, description: 'seed' },
      { adminAccess },
    );
    // The SDK set reference_id to the movement's key: the same key again moves nothing.
    const key = seeded.credit.reference_id ?? '';
    await sdk.credit(
      mine.address_hash,
      { amount: 50, description: 'seed' },
      { adminAccess, idempotencyKey: key },
    );
    const before = await sdk.getWallet(mine.address_hash, { forceRefresh: true });
    expect(before.wallet.balance).toBe(50);

    // transact with one Idempotency-Key, sent twice: one movement (docs/wallet.md § Idempotency).
    const move = {
      from_wallet: mine.address_hash,
      to_wallet: orgWallet.address_hash,
      from_asset: 'CREDITS',
      to_asset: 'CREDITS',
      amount: 5,
      description: 'journey move',
    };
    const first = await sdk.transact(move, { idempotencyKey: `journey-${email}` });
    const replay = await sdk.transact(move, { idempotencyKey: `journey-${email}` });
    expect(replay.transaction.id).toBe(first.transaction.id);
    expect((await sdk.getWallet(mine.address_hash)).wallet.balance).toBe(45);
    const overdraw = await sdk.transact({ ...move, amount: 1000 }).catch((e: unknown) => e);
    expect(isPlatformApiError(overdraw, 'POST /v1/api/wallets/transact')).toBe(true);
    expect(overdraw).toMatchObject({ status: 422, code: 'INSUFFICIENT_FUNDS' });

    const transfer = await sdk.requestTransfer({
      from_wallet: mine.address_hash,
      to_wallet: orgWallet.address_hash,
      amount: 20,
      description: 'journey',
    });
    expect(transfer.transfer.status).toBe('pending_sender_verification');

    // Lists, page after page as each pages on the platform.
    const history = await sdk.walletTransactions(mine.address_hash, { perPage: 1 }).toArray();
    expect(history.map((line) => line.amount)).toEqual([5, 50]);
    const transfers = await sdk.walletTransfers({ perPage: 1 }).toArray();
    expect(transfers.map((t) => t.id)).toEqual([transfer.transfer.id]);
    const sessions = await sdk.userSessions().toArray();
    expect(sessions.filter((s) => s.attributes.current)).toHaveLength(1);
    // The credit reaches the organization's audit log by event (docs/wallet.md § Credits in the
    // audit log); read with one entry per page, following the cursor.
    const audit = await waitFor(
      async () => {
        const entries = await sdk.auditLog(organizationId, { limit: 1 }).toArray();
        return entries.some((e) => e.attributes.action === 'wallet.credited') && entries;
      },
      { timeoutMs: 10_000, intervalMs: 250, what: 'the credit in the audit log' },
    );
    expect(new Set(audit.map((entry) => entry.id)).size).toBe(audit.length);

    await sdk.loadSettings();
    sdk.settings.update({ theme: 'dark', current_organization_id: String(organizationId) });
    expect(sdk.settings.values).toMatchObject({ theme: 'dark' });
    await sdk.settings.flush();
    const stored = await sdk.api.GET('/v1/api/user_settings');
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ theme: 'dark', current_organization_id: organizationId });

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
