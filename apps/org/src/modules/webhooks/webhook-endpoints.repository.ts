import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookEndpoint } from './webhook-tables.js';

/** An endpoint with its queue counts, as the API shows it. */
export interface EndpointWithCounts {
  endpoint: WebhookEndpoint;
  pendingDeliveries: number;
  failedDeliveries: number;
}

/** The `webhook_endpoint` table: every read is scoped to one organization. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(WebhookEndpoint);
  }

  async insert(endpoint: WebhookEndpoint, manager: EntityManager): Promise<WebhookEndpoint> {
    return this.repo(manager).save(endpoint);
  }

  async save(endpoint: WebhookEndpoint, manager: EntityManager): Promise<WebhookEndpoint> {
    return this.repo(manager).save(endpoint);
  }

  /** The endpoint if it belongs to the organization; `lock` takes its row lock. */
  async find(
    organizationId: number,
    endpointId: string,
    manager?: EntityManager,
    lock = false,
  ): Promise<WebhookEndpoint | null> {
    return this.repo(manager).findOne({
      where: { id: endpointId, organizationId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async count(organizationId: number, manager: EntityManager): Promise<number> {
    return this.repo(manager).count({ where: { organizationId } });
  }

  async delete(endpointId: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id: endpointId });
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
        : await this.dataSource.query(
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
