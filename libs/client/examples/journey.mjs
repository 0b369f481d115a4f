// The user journey with @workspace-platform/client from Node 20+ (ES module):
//   PLATFORM_URL=http://127.0.0.1:3000 API_KEY=… EMAIL=… PASSWORD=… node journey.mjs
// (an account that needs no activation; see README § Client SDK for activation).
import {
  AnalyticsClient,
  isPlatformApiError,
  WorkspacePlatformClient,
} from '@workspace-platform/client';

const { PLATFORM_URL = 'http://127.0.0.1:3000', API_KEY, EMAIL, PASSWORD } = process.env;
const sdk = new WorkspacePlatformClient({
  baseUrl: PLATFORM_URL,
  apiKey: API_KEY,
  onSessionEnd: () => console.log('session ended'),
  onSettingsError: (error) => console.error('settings not saved:', error.message),
});

try {
  await sdk.login(EMAIL, PASSWORD);
  const org = await sdk.createOrganization('Example Inc');
  const organizationId = Number(org.data.id);
  const project = await sdk.createProject(organizationId, 'Website');
  const projectId = Number(project.data.id);
  const { meta } = await sdk.getProject(organizationId, projectId, true);
  const analytics = new AnalyticsClient(PLATFORM_URL, meta.secrets, { apiKey: API_KEY });
  const toTimestamp = new Date().toISOString();
  const fromTimestamp = new Date(Date.now() - 7 * 86_400_000).toISOString();
  console.log('metrics', await analytics.dailyMetrics({ fromTimestamp, toTimestamp }));

  const { data: wallets } = await sdk.listWallets();
  const mine = wallets.find((w) => w.entity_type === 'user');
  const orgWallet = wallets.find((w) => w.entity_type === 'organization');
  if (!mine) throw new Error('no personal wallet yet');
  if (orgWallet) {
    const { transfer } = await sdk.requestTransfer({
      from_wallet: mine.address_hash,
      to_wallet: orgWallet.address_hash,
      amount: 1,
      description: 'example',
    });
    console.log('transfer request', transfer.id, transfer.status);
  }
  for await (const line of sdk.walletTransactions(mine.address_hash)) {
    console.log(line.created_at, line.direction, line.amount, line.asset);
  }

  await sdk.loadSettings();
  sdk.settings.update({ theme: 'dark', current_organization_id: organizationId });
  await sdk.logout(); // flushes pending settings first
} catch (error) {
  if (isPlatformApiError(error)) {
    console.error(
      error.operation,
      error.status,
      error.code,
      error.detail,
      `request ${error.requestId}`,
    );
    process.exitCode = 1;
  } else throw error;
}
