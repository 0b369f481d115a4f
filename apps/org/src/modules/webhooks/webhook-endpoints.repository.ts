import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import { WebhookEndpoint } from './webhook-tables.js';

/** An endpoint with its queue counts, as the API shows it. */
export interface EndpointWithCounts {
  endpoint: WebhookEndpoint;
  pendingDeliveries: number;
  failedDeliveries: number;
}

/**
 * The `webhook_endpoint` table: every read is scoped to one organization. Reads use the
 * transaction open in the async context, or one autocommit statement outside one (`txHost.tx`);
 * writes and locking reads need an open boundary (`activeTransaction`: they throw without one,
 * docs/org.md § Transactions).
 */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly txHost: TxHost) {}

  /** In the active transaction (`write`: throws without one), else on the pool. */
  private repo(write = false) {
    return (write ? activeTransaction(this.txHost) : this.txHost.tx).getRepository(WebhookEndpoint);
  }

  /** @throws Error when no transaction is active */
  async insert(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return this.repo(true).save(endpoint);
  }

  /** @throws Error when no transaction is active */
  async save(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return this.repo(true).save(endpoint);
  }

  /**
   * The endpoint if it belongs to the organization; `lock` takes its row lock (then it throws
   * when no transaction is active).
   */
  async find(
    organizationId: number,
    endpointId: string,
    lock = false,
  ): Promise<WebhookEndpoint | null> {
    return this.repo(lock).findOne({
      where: { id: endpointId, organizationId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async count(organizationId: number): Promise<number> {
    return this.repo().count({ where: { organizationId } });
  }

  /** @throws Error when no transaction is active */
  async delete(endpointId: string): Promise<void> {
    await this.repo(true).delete({ id: endpointId });
  }

  /** The organization's endpoints, oldest first, with pending and failed delivery counts. */
  async listWithCounts(organizationId: number): Promise<EndpointWithCounts[]> {
    const endpoints = await this.repo().find({
      where: { organizationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const counts = await this.counts(endpoints.map((e) => e.id));
    return endpoints.map((endpoint) => ({ endpoint, ...counts(endpoint.id) }));
  }

  /** One endpoint with its counts. */
  async withCounts(endpoint: WebhookEndpoint): Promise<EndpointWithCounts> {
    const counts = await this.counts([endpoint.id]);
    return { endpoint, ...counts(endpoint.id) };
  }

  private async counts(
    endpointIds: string[],
  ): Promise<(id: string) => { pendingDeliveries: number; failedDeliveries: number }> {
    const rows: { endpoint_id: string; pending: number; failed: number }[] =
      endpointIds.length === 0
        ? []
        : await this.txHost.tx.query(
            `SELECT endpoint_id,
                    count(*) FILTER (WHERE status IN ('pending', 'delivering'))::int AS pending,
                    count(*) FILTER (WHERE status = 'failed')::int AS failed
               FROM webhook_delivery WHERE endpoint_id = ANY($1::uuid[])
              GROUP BY endpoint_id`,
            [endpointIds],
          );
    const byId = new Map(rows.map((r) => [r.endpoint_id, r]));
    return (id) => ({
      pendingDeliveries: byId.get(id)?.pending ?? 0,
      failedDeliveries: byId.get(id)?.failed ?? 0,
    });
  }
}
