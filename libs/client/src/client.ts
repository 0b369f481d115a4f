import { READ_CACHE_MS } from './cache.js';
import { ClientCore, type ReadOptions } from './client-core.js';
import { keyPairOf } from './document-gaps.js';
import type {
  ActivityLogEntry,
  ActivityLogQuery,
  AdjustmentRequest,
  AuditLogEntry,
  AuditLogQuery,
  CreditDocument,
  DebitDocument,
  OrganizationDocument,
  Project,
  ProjectDocument,
  ProjectListDocument,
  ProjectListQuery,
  ProjectWithSecrets,
  TransactionDocument,
  TransactRequest,
  TransferDocument,
  TransferRequest,
  WalletDocument,
  WalletListDocument,
  WalletTransaction,
  WalletTransfer,
} from './documents.js';
import { invalidResponse } from './errors.js';
import { newIdempotencyKey } from './idempotency.js';
import { cursorPages, numberedPages, singlePage, type Paginator } from './paging.js';
import { Passkeys } from './passkeys.js';
import { WebhookEndpoints } from './webhooks.js';

export { type ClientOptions, type ReadOptions } from './client-core.js';

/** Options of a money movement (README of the package, "Retries and idempotency"). */
export interface MovementOptions {
  /**
   * The movement's idempotency key (1–255 visible ASCII characters); default a new UUID. Pass
   * your own to retry the same movement across restarts of your program.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** Options of a paged list: how many items per request (1–100; the platform's default else). */
export interface PageOptions {
  perPage?: number;
}

/**
 * The workspace platform client. `api` is the typed client of every operation (the OpenAPI
 * document's paths) with the contract's authentication rules applied ({@link Session}); the
 * methods add the contract's client rules for the user journey: sessions, cached reads
 * (5 minutes; writes invalidate them), the organization id check, the project update id,
 * settings written locally first, idempotency keys on money movements, retries, and lists as
 * async iterables. Every call resolves with its answer or rejects with {@link PlatformApiError}.
 */
export class WorkspacePlatformClient extends ClientCore {
  /** Webhook endpoints of organizations and their deliveries ({@link WebhookEndpoints}). */
  readonly webhooks = new WebhookEndpoints(this.api);
  /** The signed-in user's passkeys ({@link Passkeys}). */
  readonly passkeys = new Passkeys(this.api);

  /** `GET /organizations/{id}`; cached 5 minutes; an answer for another id is rejected. */
  async getOrganization(id: number, options: ReadOptions = {}): Promise<OrganizationDocument> {
    return this.cached(`/organizations/${id}`, READ_CACHE_MS, options, async () => {
      const { body } = await this.api.GET('/v1/api/organizations/{organizationId}', {
        params: { path: { organizationId: id } },
      });
      if (body === undefined) throw invalidResponse('304 without a cached organization');
      if (String(body.data.id) !== String(id)) {
        throw invalidResponse(`asked for organization ${id}, got ${body.data.id}`, {
          operation: 'GET /v1/api/organizations/{organizationId}',
        });
      }
      return body;
    });
  }

  /** `POST /organizations`: the new organization (the organization list is dropped from cache). */
  async createOrganization(name: string) {
    const { body } = await this.api.POST('/v1/api/organizations', {
      body: { data: { type: 'organization', attributes: { name } } },
    });
    this.cache.invalidate('/organizations');
    return body;
  }

  /** `GET /organizations/{id}/projects`; cached 5 minutes. */
  async listProjects(
    organizationId: number,
    options: ReadOptions = {},
  ): Promise<ProjectListDocument> {
    return this.cached(
      `/organizations/${organizationId}/projects`,
      READ_CACHE_MS,
      options,
      async () => {
        const { body } = await this.api.GET('/v1/api/organizations/{organizationId}/projects', {
          params: { path: { organizationId } },
        });
        return body;
      },
    );
  }

  /**
   * The organization's projects the caller can see, filtered and sorted by the platform
   * (docs/org.md § Project list); one answer holds the whole list. Not cached.
   */
  projects(organizationId: number, query: ProjectListQuery = {}): Paginator<Project> {
    return singlePage(async () => {
      const { body } = await this.api.GET('/v1/api/organizations/{organizationId}/projects', {
        params: { path: { organizationId }, query },
      });
      return body.data;
    });
  }

  /** `POST /organizations/{id}/projects`; invalidates the project list and the organization. */
  async createProject(organizationId: number, name: string) {
    const { body } = await this.api.POST('/v1/api/organizations/{organizationId}/projects', {
      params: { path: { organizationId } },
      body: { data: { type: 'project', attributes: { name } } },
    });
    this.cache.invalidate(`/organizations/${organizationId}`);
    return body;
  }

  /** `GET` a project; `secret: true` adds its key pair (`meta.secrets`) for analytics. */
  async getProject(organizationId: number, projectId: number): Promise<ProjectDocument>;
  async getProject(
    organizationId: number,
    projectId: number,
    secret: true,
  ): Promise<ProjectWithSecrets>;
  async getProject(
    organizationId: number,
    projectId: number,
    secret = false,
  ): Promise<ProjectDocument | ProjectWithSecrets> {
    const { body } = await this.api.GET(
      '/v1/api/organizations/{organizationId}/projects/{projectId}',
      { params: { path: { organizationId, projectId }, query: secret ? { secret } : {} } },
    );
    if (body === undefined) throw invalidResponse('304 without a cached project');
    if (!secret) return body;
    return { ...body, meta: { ...body.meta, secrets: keyPairOf(body.meta) } };
  }

  /** `PATCH` a project: `data.id` is always the path id (docs/api.md § Errors, other rules). */
  async updateProject(organizationId: number, projectId: number, name: string) {
    const { body } = await this.api.PATCH(
      '/v1/api/organizations/{organizationId}/projects/{projectId}',
      {
        params: { path: { organizationId, projectId } },
        body: { data: { id: String(projectId), type: 'project', attributes: { name } } },
      },
    );
    this.cache.invalidate(`/organizations/${organizationId}`);
    return body;
  }

  /**
   * The organization's audit log, newest first, following `meta.next_cursor` (keyset pages,
   * stable while entries arrive; docs/org.md § Audit log). `limit` is the page size (1–100).
   */
  auditLog(organizationId: number, query: AuditLogQuery = {}): Paginator<AuditLogEntry> {
    return cursorPages(async (cursor) => {
      const { body } = await this.api.GET('/v1/api/organizations/{organizationId}/audit_log', {
        params: { path: { organizationId }, query: { ...query, ...(cursor ? { cursor } : {}) } },
      });
      return { items: body.data, next: body.meta.next_cursor };
    });
  }

  /** `GET /wallets/{address}`; cached 5 minutes; `forceRefresh` sends `cache_bust`. */
  async getWallet(address: string, options: ReadOptions = {}): Promise<WalletDocument> {
    return this.cached(`/wallets/${address}`, READ_CACHE_MS, options, async () => {
      const { body } = await this.api.GET('/v1/api/wallets/{addressHash}', {
        params: {
          path: { addressHash: address },
          query: options.forceRefresh ? { cache_bust: String(Date.now()) } : {},
        },
      });
      if (body === undefined) throw invalidResponse('304 without a cached wallet');
      return body;
    });
  }

  /** `GET /wallets` (not cached: the list is the wallets the caller may see now). */
  async listWallets(): Promise<WalletListDocument> {
    return (await this.api.GET('/v1/api/wallets')).body;
  }

  /** A wallet's history, newest first (`page` / `per_page`; docs/wallet.md § Transaction record). */
  walletTransactions(address: string, options: PageOptions = {}): Paginator<WalletTransaction> {
    return numberedPages(
      async (page) => {
        const { body } = await this.api.GET('/v1/api/wallets/{addressHash}/transactions', {
          params: { path: { addressHash: address }, query: { page, per_page: options.perPage } },
        });
        return { items: body.data, totalPages: body.meta.total_pages };
      },
      (line) => line.id,
    );
  }

  /** The caller's transfer requests, newest first (`GET /wallet_transfers`, `page` / `per_page`). */
  walletTransfers(options: PageOptions = {}): Paginator<WalletTransfer> {
    return numberedPages(
      async (page) => {
        const { body } = await this.api.GET('/v1/api/wallet_transfers', {
          params: { query: { page, per_page: options.perPage } },
        });
        return { items: body.data, totalPages: body.meta.total_pages };
      },
      (transfer) => transfer.id,
    );
  }

  /**
   * `POST /wallets/transact`: moves (or converts) an amount, with an `Idempotency-Key` kept
   * across retries; both wallets' cache entries are dropped.
   */
  async transact(
    transaction: TransactRequest,
    options: MovementOptions = {},
  ): Promise<TransactionDocument> {
    const { body } = await this.api.POST('/v1/api/wallets/transact', {
      body: { transaction },
      headers: { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() },
      signal: options.signal,
    });
    this.dropWallets(transaction.from_wallet, transaction.to_wallet);
    return body;
  }

  /**
   * `POST /wallets/{address}/debits`. The platform deduplicates debits by `reference_id`; the
   * SDK sets it (and the `Idempotency-Key`) to the movement's key unless you give one.
   */
  async debit(
    address: string,
    debit: AdjustmentRequest,
    options: MovementOptions = {},
  ): Promise<DebitDocument> {
    const key = options.idempotencyKey ?? debit.reference_id ?? newIdempotencyKey();
    const { body } = await this.api.POST('/v1/api/wallets/{addressHash}/debits', {
      params: { path: { addressHash: address } },
      body: { debit: { ...debit, reference_id: debit.reference_id ?? key } },
      headers: { 'Idempotency-Key': key },
      signal: options.signal,
    });
    this.dropWallets(address);
    return body;
  }

  /** `POST /wallets/{address}/credits` with the operator's `Admin-Access`; as {@link debit}. */
  async credit(
    address: string,
    credit: AdjustmentRequest,
    options: MovementOptions & { adminAccess: string },
  ): Promise<CreditDocument> {
    const key = options.idempotencyKey ?? credit.reference_id ?? newIdempotencyKey();
    const { body } = await this.api.POST('/v1/api/wallets/{addressHash}/credits', {
      params: { path: { addressHash: address } },
      body: { credit: { ...credit, reference_id: credit.reference_id ?? key } },
      headers: { 'Idempotency-Key': key, 'Admin-Access': options.adminAccess },
      signal: options.signal,
    });
    this.dropWallets(address);
    return body;
  }

  /** `POST /wallet_transfers`: a transfer request (code mailed to you); both wallets dropped. */
  async requestTransfer(
    transfer: TransferRequest,
    options: MovementOptions = {},
  ): Promise<TransferDocument> {
    const { body } = await this.api.POST('/v1/api/wallet_transfers', {
      body: { transfer },
      headers: { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() },
      signal: options.signal,
    });
    this.dropWallets(transfer.from_wallet, transfer.to_wallet);
    return body;
  }

  /** `POST /wallet_transfers/{id}/verify_sender` with the sender's mailed code (reserves funds). */
  async verifyTransferSender(
    transferId: string,
    verificationCode: string,
    options: MovementOptions = {},
  ) {
    return this.transferStep('verify_sender', transferId, verificationCode, options);
  }

  /** `POST /wallet_transfers/{id}/accept` with the recipient's mailed code (moves the money). */
  async acceptTransfer(
    transferId: string,
    verificationCode: string,
    options: MovementOptions = {},
  ) {
    return this.transferStep('accept', transferId, verificationCode, options);
  }

  /** `POST /wallet_transfers/{id}/reject`: by the sender side or the recipient; any hold returned. */
  async rejectTransfer(transferId: string, options: MovementOptions = {}) {
    const { body } = await this.api.POST('/v1/api/wallet_transfers/{transferId}/reject', {
      params: { path: { transferId } },
      headers: { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() },
      signal: options.signal,
    });
    this.dropWallets(body.transfer.from_wallet, body.transfer.to_wallet);
    return body;
  }

  /**
   * A Sentinel Pass agent's activity log, newest first by default (`page` / `per_page`;
   * docs/auth.md § Activity endpoints (header set B, user tokens)).
   */
  activityLogs(agentUserId: string, query: ActivityLogQuery = {}): Paginator<ActivityLogEntry> {
    return numberedPages(
      async (page) => {
        const { body } = await this.api.GET('/v1/api/oauth/agent/activity/logs', {
          params: { query: { ...query, agent_user_id: agentUserId, page } },
        });
        return { items: body.data, totalPages: body.meta.total_pages };
      },
      (entry) => entry.id,
    );
  }

  private async transferStep(
    step: 'verify_sender' | 'accept',
    transferId: string,
    verificationCode: string,
    options: MovementOptions,
  ): Promise<TransferDocument> {
    const path =
      step === 'accept'
        ? ('/v1/api/wallet_transfers/{transferId}/accept' as const)
        : ('/v1/api/wallet_transfers/{transferId}/verify_sender' as const);
    const { body } = await this.api.POST(path, {
      params: { path: { transferId } },
      body: { verification_code: verificationCode },
      headers: { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() },
      signal: options.signal,
    });
    this.dropWallets(body.transfer.from_wallet, body.transfer.to_wallet);
    return body;
  }

  private dropWallets(...addresses: string[]): void {
    for (const address of addresses) this.cache.invalidate(`/wallets/${address}`);
  }
}
